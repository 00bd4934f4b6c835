import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PredictionsBatchPayload, RunCafaEvaluationPayload } from '@svc/contracts';
import { activeFeatureNames, featureFlagsOf, featureSchemaSha } from '@svc/domain';
import { JobError } from '@svc/jobs';
import type { PredictionRow, RerankerRecord } from '@svc/persistence';
import type { SourcePolicy } from '@svc/platform';
import { distanceStumpModel } from '@svc/testing';
import { applyReranker } from './apply-reranker';
import { bindRerankers } from './bind-rerankers';

// Booster binding over plain objects and files: the schema check, the scores, which model scores
// which row, and the two failures a job reports (a refused source, an unusable booster).

const NAMES = activeFeatureNames(featureFlagsOf({}));
const SHA = featureSchemaSha(NAMES);
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

let dir: string;
let outside: string;
let model: string;
let garbage: string;
let policy: SourcePolicy;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-rerankers-'));
  outside = mkdtempSync(join(tmpdir(), 'svc-rerankers-outside-'));
  model = join(dir, 'model.txt');
  garbage = join(dir, 'garbage.txt');
  writeFileSync(model, distanceStumpModel(NAMES));
  writeFileSync(garbage, 'not a booster\n');
  writeFileSync(join(outside, 'model.txt'), distanceStumpModel(NAMES));
  policy = {
    allowedRoots: [dir],
    allowedHosts: new Set(),
    baseDir: null,
    maxLineBytes: 1 << 20,
    maxBytes: 1 << 24,
    store: null,
    deadlineMs: 10_000,
    minBytesPerSecond: 0,
    rateWindowMs: 1_000,
  };
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const row = (protein: string, aspect: string, distance: number) =>
  ({
    protein_accession: protein,
    go_id: 'GO:0003674',
    go_aspect: aspect,
    distance,
    vote_count: 1,
    k_position: 1,
  }) as unknown as PredictionRow;

async function failure(call: Promise<unknown>): Promise<JobError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof JobError)) throw new Error(`expected a JobError, got ${String(error)}`);
  return error;
}

describe('applyReranker', () => {
  const apply = (payload: Partial<PredictionsBatchPayload>, rows: PredictionRow[] = []) => {
    const events: { event: string; level?: string; fields?: Record<string, unknown> }[] = [];
    const result = applyReranker({
      payload: payload as PredictionsBatchPayload,
      options: {},
      rows,
      emit: async (event, _message, fields, level) => void events.push({ event, level, fields }),
      sources: policy,
    });
    return { result, events };
  };

  it('does nothing without a bound booster', async () => {
    const { result, events } = apply({});
    expect(await result).toBeNull();
    expect(events).toEqual([]);
  });

  it('keeps the distance order and warns when the schemas differ', async () => {
    const { result, events } = apply({
      reranker_artifact_uri: model,
      reranker_feature_schema_sha: 'f'.repeat(64),
    });
    expect(await result).toBeNull();
    expect(events).toEqual([
      {
        event: 'reranker.schema_mismatch',
        level: 'warning',
        fields: { live_feature_schema_sha: SHA, booster_feature_schema_sha: 'f'.repeat(64) },
      },
    ]);
  });

  it("scores the batch's rows with the booster", async () => {
    const rows = [row('P1', 'F', 0.1), row('P1', 'F', 0.9)];
    const { result } = apply({ reranker_artifact_uri: model, reranker_feature_schema_sha: SHA }, rows);
    const summary = (await result)!;
    expect(summary['rows']).toBe(2);
    expect(summary['max']).toBeCloseTo(sigmoid(2), 12);
    expect(summary['min']).toBeCloseTo(sigmoid(-1), 12);
    expect(summary['scores']).toEqual([
      { protein_accession: 'P1', go_id: 'GO:0003674', score: expect.closeTo(sigmoid(2), 12) },
      { protein_accession: 'P1', go_id: 'GO:0003674', score: expect.closeTo(sigmoid(-1), 12) },
    ]);
  });

  it('fails source_not_allowed for a booster outside the allowed roots', async () => {
    const { result } = apply({
      reranker_artifact_uri: join(outside, 'model.txt'),
      reranker_feature_schema_sha: SHA,
    });
    const error = await failure(result);
    expect(error.code).toBe('source_not_allowed');
    expect(error.message).toMatch(/^re-ranker: /);
  });

  it('fails reranker_unusable for a file that is no booster', async () => {
    const { result } = apply({ reranker_artifact_uri: garbage, reranker_feature_schema_sha: SHA });
    const error = await failure(result);
    expect(error.code).toBe('reranker_unusable');
    expect(error.message.startsWith(`re-ranker ${garbage}: `)).toBe(true);
  });
});

describe('bindRerankers', () => {
  const record = (id: string, uri: string) => ({ id, artifact_uri: uri }) as unknown as RerankerRecord;

  function repos(records: RerankerRecord[]) {
    const asked: string[] = [];
    return {
      asked,
      repos: {
        rerankers: {
          find: (id: string) => {
            asked.push(id);
            return Promise.resolve(records.find((r) => r.id === id) ?? null);
          },
        },
      },
    };
  }

  it('binds nothing when the payload names no re-ranker', async () => {
    const { repos: r } = repos([]);
    expect(await bindRerankers(r, {} as RunCafaEvaluationPayload, null, policy)).toBeNull();
  });

  it('scores a category and aspect with its model, every other row with the fallback', async () => {
    const { repos: r, asked } = repos([record('m1', model)]);
    const payload = {
      rerankers: { nk: { mfo: 'm1' }, lk: { mfo: 'm1' } },
    } as unknown as RunCafaEvaluationPayload;
    const bound = (await bindRerankers(r, payload, null, policy))!;
    expect(bound.ids).toEqual(['m1']);
    // Named twice, read once.
    expect(asked).toEqual(['m1']);
    const nk = bound.scorerFor('NK');
    expect(nk(row('P1', 'F', 0.1) as unknown as Record<string, unknown>)).toBeCloseTo(sigmoid(2), 12);
    // Not covered: the row's own score, max(0, 1 - distance).
    expect(nk(row('P1', 'P', 0.1) as unknown as Record<string, unknown>)).toBeCloseTo(0.9, 6);
    expect(bound.scorerFor('PK')(row('P1', 'F', 0.1) as unknown as Record<string, unknown>)).toBeCloseTo(
      0.9,
      6,
    );
  });

  it('fails for a re-ranker that does not exist, and names the unusable one', async () => {
    const { repos: r } = repos([record('bad', garbage)]);
    const missing = await failure(
      bindRerankers(r, { reranker_model_id: 'gone' } as RunCafaEvaluationPayload, null, policy),
    );
    expect(missing.message).toMatch(/gone does not exist/);
    const unusable = await failure(
      bindRerankers(r, { reranker_model_id: 'bad' } as RunCafaEvaluationPayload, null, policy),
    );
    expect(unusable.code).toBe('reranker_unusable');
    expect(unusable.message.startsWith(`re-ranker bad (${garbage}): `)).toBe(true);
  });
});
