import { PredictionsBatchPayload, PredictionsSearchPayload, RunCafaEvaluationPayload } from '@svc/contracts';
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

describe('validatePayload: the batches of a homology prediction', () => {
  const query = (i: number) => ({ accession: `P${i}`, sequence_id: i });
  const set = { prediction_set_id: ids.prediction_set_id };

  it('takes a batch of 1 to 5,000 well-formed queries and refuses any other', async () => {
    const batch = await validatePayload<PredictionsBatchPayload>(PredictionsBatchPayload, {
      ...set,
      queries: [query(1)],
    });
    expect(batch.queries).toEqual([query(1)]);
    await expect(validatePayload(PredictionsBatchPayload, { ...set, queries: [] })).rejects.toThrow(
      /queries/,
    );
    await expect(
      validatePayload(PredictionsBatchPayload, {
        ...set,
        queries: Array.from({ length: 5001 }, (_, i) => query(i)),
      }),
    ).rejects.toThrow(/queries/);
    await expect(
      validatePayload(PredictionsBatchPayload, { ...set, queries: [{ accession: 'P1', sequence_id: 'x' }] }),
    ).rejects.toThrow(/sequence_id/);
  });

  it('checks every batch of a search-ahead step as a batch', async () => {
    const search = await validatePayload<PredictionsSearchPayload>(PredictionsSearchPayload, {
      ...set,
      batches: [{ queries: [query(1), query(2)] }, { queries: [query(3)] }],
    });
    expect(search.batches.map((b) => b.queries.length)).toEqual([2, 1]);
    await expect(
      validatePayload(PredictionsSearchPayload, {
        ...set,
        batches: [{ queries: [query(1)] }, { queries: [] }],
      }),
    ).rejects.toThrow(/queries/);
    await expect(
      validatePayload(PredictionsSearchPayload, {
        ...set,
        batches: [{ queries: [{ accession: '', sequence_id: 1 }] }],
      }),
    ).rejects.toThrow(/accession/);
    await expect(validatePayload(PredictionsSearchPayload, { ...set, batches: [] })).rejects.toThrow(
      /batches/,
    );
    // Five full batches are 25,000 queries: more than one search may take.
    const full = { queries: Array.from({ length: 5000 }, (_, i) => query(i)) };
    await expect(
      validatePayload(PredictionsSearchPayload, { ...set, batches: [full, full, full, full, full] }),
    ).rejects.toThrow(/at most 20000 queries in all/);
    const four = await validatePayload<PredictionsSearchPayload>(PredictionsSearchPayload, {
      ...set,
      batches: [full, full, full, full],
    });
    expect(four.batches).toHaveLength(4);
  });
});
