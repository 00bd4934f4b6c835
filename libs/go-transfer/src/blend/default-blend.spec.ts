import { defaultBlendModel } from './default-blend';

describe('the shipped blend', () => {
  it('says which donor policy its calibration was fitted for: experimental donors (tools/train/train-blend.ts)', () => {
    expect(defaultBlendModel().donor_evidence).toBe('experimental');
  });
});
