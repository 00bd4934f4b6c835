import { randomUUID } from 'node:crypto';
import { DomainError } from '@svc/contracts';
import { DataSource } from 'typeorm';
import { NewReranker, RerankerRepository } from './reranker.repository';
import { domainError, useRunDatabase } from '../../testing/repository-test-support';

// RerankerRepository against the run's PostgreSQL: a model is registered under a unique name (a
// second one is a conflict unless forced, which replaces it all or nothing), read, listed, deleted.

let db: DataSource;
let rerankers: RerankerRepository;

useRunDatabase(
  (opened) => {
    db = opened;
    rerankers = new RerankerRepository(db);
  },
  { poolSize: 5 },
);

function model(extra: Partial<NewReranker> = {}): NewReranker {
  return {
    name: `reranker-${randomUUID()}`,
    artifact_uri: 'file:///models/model.txt',
    feature_schema_sha: 'a'.repeat(64),
    feature_names: ['distance', 'identity_sw', 'vote_count'],
    objective: 'binary',
    spec_yaml: 'objective: binary\n',
    run: { seed: 7, rounds: 100 },
    run_id: 'run-1',
    metrics: { auc: 0.875, folds: [0.5, 0.75] },
    feature_importance: { distance: 12, identity_sw: 3 },
    dataset_id: 'dataset-1',
    external_source: null,
    prediction_set_id: null,
    evaluation_set_id: null,
    import_kind: 'upload',
    ...extra,
  };
}

describe('RerankerRepository', () => {
  it('save registers a model; find and get read every field back', async () => {
    const input = model();
    const saved = await rerankers.save(input, false);
    expect(saved).toEqual({
      ...input,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    });
    expect(await rerankers.find(saved.id)).toEqual(saved);
    expect(await rerankers.get(saved.id)).toEqual(saved);

    const reference = await rerankers.save(
      model({
        import_kind: 'reference',
        feature_names: [],
        objective: null,
        run: {},
        run_id: null,
        metrics: {},
        feature_importance: {},
        dataset_id: null,
        external_source: 's3://bucket/model.txt',
      }),
      false,
    );
    expect(reference).toMatchObject({
      import_kind: 'reference',
      feature_names: [],
      run: {},
      objective: null,
    });
  });

  it('find gives null, get and delete a not_found error, for an unknown model', async () => {
    expect(await rerankers.find(randomUUID())).toBeNull();
    expect(await domainError(rerankers.get(randomUUID()))).toMatchObject({
      code: 'not_found',
      message: 'Re-ranker not found',
    });
    expect(await domainError(rerankers.delete(randomUUID()))).toMatchObject({ code: 'not_found' });
  });

  it('save of a taken name is a conflict without force and keeps the registered model', async () => {
    const first = await rerankers.save(model(), false);
    expect(
      await domainError(rerankers.save(model({ name: first.name, run_id: 'run-2' }), false)),
    ).toMatchObject({
      code: 'conflict',
      message: `a re-ranker named '${first.name}' exists; send force=true to replace it`,
    });
    expect(await rerankers.get(first.id)).toEqual(first);
  });

  it('save with force replaces the model of that name', async () => {
    const first = await rerankers.save(model(), false);
    const replacement = await rerankers.save(
      model({ name: first.name, run_id: 'run-2', objective: 'lambdarank' }),
      true,
    );
    expect(replacement.id).not.toBe(first.id);
    expect(replacement).toMatchObject({ name: first.name, run_id: 'run-2', objective: 'lambdarank' });
    expect(await rerankers.find(first.id)).toBeNull();
    expect((await rerankers.list()).filter((m) => m.name === first.name)).toEqual([replacement]);
    // Forcing a new name simply registers it.
    const fresh = model();
    expect(await rerankers.save(fresh, true)).toMatchObject({ name: fresh.name });
  });

  it('a forced replacement that cannot be stored keeps the old model', async () => {
    const first = await rerankers.save(model(), false);
    await expect(
      rerankers.save(model({ name: first.name, import_kind: 'copied' as NewReranker['import_kind'] }), true),
    ).rejects.toThrow(/reranker_model_import_kind_check/);
    expect(await rerankers.get(first.id)).toEqual(first);
  });

  it('list gives every model, newest first', async () => {
    const older = await rerankers.save(model(), false);
    const newer = await rerankers.save(model(), false);
    const listed = await rerankers.list();
    const ids = listed.map((m) => m.id);
    expect(ids.indexOf(newer.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(listed.find((m) => m.id === older.id)).toEqual(older);
  });

  it('delete removes a model and returns it; it is then not found', async () => {
    const doomed = await rerankers.save(model(), false);
    expect(await rerankers.delete(doomed.id)).toEqual(doomed);
    expect(await rerankers.find(doomed.id)).toBeNull();
    expect(await domainError(rerankers.delete(doomed.id))).toMatchObject({ code: 'not_found' });
  });

  it('lets one of several simultaneous saves of a new name win; the others are a conflict', async () => {
    const name = `reranker-${randomUUID()}`;
    const outcomes = await Promise.allSettled([0, 1, 2, 3].map(() => rerankers.save(model({ name }), false)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) {
      expect(o.reason).toBeInstanceOf(DomainError);
      expect((o.reason as DomainError).code).toBe('conflict');
    }
    expect((await rerankers.list()).filter((r) => r.name === name)).toHaveLength(1);
  });

  it('applies simultaneous forced saves of one name one after another, leaving the last', async () => {
    const name = `reranker-${randomUUID()}`;
    await rerankers.save(model({ name }), false);
    const saved = await Promise.all(
      ['run-a', 'run-b', 'run-c'].map((run_id) => rerankers.save(model({ name, run_id }), true)),
    );
    const left = (await rerankers.list()).filter((r) => r.name === name);
    expect(left).toHaveLength(1);
    expect(saved.map((r) => r.id)).toContain(left[0]!.id);
  });
});
