import { blendModelFor, defaultBlendModel } from './default-blend';

describe('the shipped blends', () => {
  it('the default says which donor policy its calibration was fitted for: experimental donors (tools/train/train-blend.ts)', () => {
    expect(defaultBlendModel().donor_evidence).toBe('experimental');
    expect(blendModelFor('experimental')).toBe(defaultBlendModel());
  });

  it('every evidence code as donors scores with the blend fitted for that policy, association and calibration included (train:* --donors all)', () => {
    const all = blendModelFor('all');
    expect(all.donor_evidence).toBe('all');
    expect(all.version).toMatch(/^homology-blend-all-v\d+$/);
    expect(all.version).not.toBe(defaultBlendModel().version);
    expect(all.association).toBeDefined();
    for (const aspect of ['F', 'P', 'C'] as const) {
      const blend = all.aspects[aspect];
      expect(blend.calibration ?? blend.calibration_by_ic).toBeDefined();
    }
  });
});
