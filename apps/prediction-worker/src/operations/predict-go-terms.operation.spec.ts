import { PredictGoTermsPayload, REFERENCED_TABLES } from '@svc/contracts';
import { JobError } from '@svc/jobs';
import { checkPredictionInputs, PredictionInputReads, searchAheadGroups } from './predict-go-terms.operation';

// The coordinator's preconditions over plain objects: each missing or unusable input fails the job
// with its own code before anything is recorded, and a complete one names the search backend.

const PAYLOAD: PredictGoTermsPayload = {
  embedding_config_id: 'config-1',
  annotation_set_id: 'set-1',
  ontology_snapshot_id: 'snapshot-1',
  query_set_id: 'queries-1',
  search_backend: 'numpy',
};

const RESEARCHER = { owner_user_id: 'user-1', submitted_role: 'researcher' };

function reads(over: Record<string, unknown> = {}): PredictionInputReads {
  const answers: Record<string, unknown> = {
    findConfig: { id: 'config-1', model_name: 'kmer-v1' },
    snapshotOfAnnotationSet: 'snapshot-1',
    ownership: { owner_user_id: 'user-1', visibility: 'owner' },
    find: {},
    hasEmbeddedQueries: true,
    hasSequenceReferences: true,
    hasEmbeddedReferences: true,
    ...over,
  };
  const answer = (name: string) => () => Promise.resolve(answers[name]);
  return {
    embeddings: { findConfig: answer('findConfig') },
    references: {
      snapshotOfAnnotationSet: answer('snapshotOfAnnotationSet'),
      ownership: answer('ownership'),
      find: answer('find'),
    },
    referencePools: {
      hasEmbeddedQueries: answer('hasEmbeddedQueries'),
      hasSequenceReferences: answer('hasSequenceReferences'),
      hasEmbeddedReferences: answer('hasEmbeddedReferences'),
    },
  } as unknown as PredictionInputReads;
}

async function failure(
  repos: PredictionInputReads,
  payload: Partial<PredictGoTermsPayload> = {},
  diamondBin = 'diamond',
): Promise<JobError> {
  const error = await checkPredictionInputs({
    job: RESEARCHER,
    payload: { ...PAYLOAD, ...payload },
    repos,
    config: { diamondBin },
  }).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof JobError)) throw new Error(`expected a JobError, got ${String(error)}`);
  return error;
}

describe('checkPredictionInputs', () => {
  it('passes complete inputs and names the backend', async () => {
    const checked = await checkPredictionInputs({
      job: RESEARCHER,
      payload: PAYLOAD,
      repos: reads(),
      config: { diamondBin: 'diamond' },
    });
    expect(checked).toEqual({ backend: 'numpy', homology: false });
  });

  it('fails for a missing embedding config or annotation set, each with its code', async () => {
    const config = await failure(reads({ findConfig: null }));
    expect(config.code).toBe(REFERENCED_TABLES.embedding_config.jobErrorCode);
    expect(config.message).toMatch(/config-1 does not exist/);
    const set = await failure(reads({ snapshotOfAnnotationSet: null }));
    expect(set.code).toBe(REFERENCED_TABLES.annotation_set.jobErrorCode);
  });

  it('fails snapshot_mismatch when the set was loaded against another snapshot', async () => {
    const mismatch = await failure(reads({ snapshotOfAnnotationSet: 'snapshot-0' }));
    expect(mismatch.code).toBe('snapshot_mismatch');
    expect(mismatch.message).toMatch(/snapshot-0, not snapshot-1/);
    // A snapshot that is gone is reported as gone first.
    const gone = await failure(reads({ snapshotOfAnnotationSet: 'snapshot-0', find: null }));
    expect(gone.code).toBe(REFERENCED_TABLES.ontology_snapshot.jobErrorCode);
  });

  it("reports someone else's query set as missing", async () => {
    const error = await failure(reads({ ownership: { owner_user_id: 'user-2', visibility: 'owner' } }));
    expect(error.code).toBe(REFERENCED_TABLES.query_set.jobErrorCode);
  });

  it('fails no_query_embeddings and empty_reference_pool for a vector backend with nothing to search', async () => {
    const queries = await failure(reads({ hasEmbeddedQueries: false }));
    expect(queries.code).toBe('no_query_embeddings');
    expect(queries.message).toMatch(
      /query set queries-1 has no embeddings for embedding config config-1 \(kmer-v1\)/,
    );
    const references = await failure(reads({ hasEmbeddedReferences: false }));
    expect(references.code).toBe('empty_reference_pool');
  });

  it('fails search_tool_missing for DIAMOND without the aligner, before reading the pool', async () => {
    const error = await failure(
      reads({ hasSequenceReferences: false }),
      { search_backend: 'diamond' },
      '/nonexistent/diamond',
    );
    expect(error.code).toBe('search_tool_missing');
  });

  it('fails empty_reference_pool for DIAMOND when no annotated protein has a sequence', async () => {
    const error = await failure(reads({ hasSequenceReferences: false }), { search_backend: 'diamond' });
    expect(error.code).toBe('empty_reference_pool');
    expect(error.message).toMatch(/annotates no protein with a sequence/);
  });
});

describe('searchAheadGroups', () => {
  const homology = { homology: true, perBatch: 2000, searchAheadQueries: 20_000 };

  it('searches a proteome of nine batches in one DIAMOND run', () => {
    expect(searchAheadGroups({ ...homology, batches: 9 })).toEqual([[0, 1, 2, 3, 4, 5, 6, 7, 8]]);
  });

  it('splits 100,000 queries into searches of 20,000, the last one shorter', () => {
    const groups = searchAheadGroups({ ...homology, batches: 51 })!;
    expect(groups.map((g) => g.length)).toEqual([10, 10, 10, 10, 10, 1]);
    expect(groups.flat()).toEqual(Array.from({ length: 51 }, (_, i) => i));
  });

  it('follows SVC_SEARCH_AHEAD_QUERIES and the batch size, never past the step limit', () => {
    expect(searchAheadGroups({ ...homology, batches: 5, searchAheadQueries: 4000 })).toEqual([
      [0, 1],
      [2, 3],
      [4],
    ]);
    expect(searchAheadGroups({ ...homology, batches: 12, perBatch: 5000 })).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9, 10, 11],
    ]);
    expect(searchAheadGroups({ ...homology, batches: 25, perBatch: 1000 })!.map((g) => g.length)).toEqual([
      20, 5,
    ]);
  });

  it.each([
    ['an embedding backend', { homology: false, batches: 9 }],
    ['a single batch', { batches: 1 }],
    ['search ahead turned off', { batches: 9, searchAheadQueries: 0 }],
    ['a search that would hold one batch', { batches: 9, perBatch: 5000, searchAheadQueries: 9000 }],
  ])('lets the batches search for themselves with %s', (_, over) => {
    expect(searchAheadGroups({ ...homology, ...over })).toBeNull();
  });
});
