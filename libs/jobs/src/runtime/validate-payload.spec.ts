import { RunCafaEvaluationPayload } from '@svc/contracts';
import { validatePayload } from './validate-payload';

const ids = {
  evaluation_set_id: '0b9f7c1e-3f5d-4a0e-9a55-1d2f0c3b4a5e',
  prediction_set_id: '7c3e1a2b-9d4f-4e6a-8b1c-2d3e4f5a6b7c',
};

describe('validatePayload: run_cafa_evaluation frame', () => {
  it('takes the empty string, the specification default, as no frame', async () => {
    const payload = await validatePayload<RunCafaEvaluationPayload>(RunCafaEvaluationPayload, {
      ...ids,
      frame: '',
    });
    expect(payload.frame).toBeUndefined();
    expect(JSON.parse(JSON.stringify(payload))).toEqual(ids);
  });

  it('keeps lafa and refuses any other frame', async () => {
    const lafa = await validatePayload<RunCafaEvaluationPayload>(RunCafaEvaluationPayload, {
      ...ids,
      frame: 'lafa',
    });
    expect(lafa.frame).toBe('lafa');
    await expect(validatePayload(RunCafaEvaluationPayload, { ...ids, frame: 'cafa5' })).rejects.toThrow(
      /frame/,
    );
  });
});
