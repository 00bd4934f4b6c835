import { randomUUID } from 'node:crypto';
import { ListScope, Visibility } from '@svc/domain';
import { DataSource } from 'typeorm';
import { ExperimentRunRepository } from './experiment-run.repository';
import { domainError, useRunDatabase } from '../../testing/repository-test-support';

// ExperimentRunRepository against the run's PostgreSQL: runs are created under names unique per
// owner, listed by ownership scope and status a page at a time, read, updated field by field with
// their status moves and stamps (all or nothing), and deleted.

let db: DataSource;
let runs: ExperimentRunRepository;

const ISO_MICROS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

useRunDatabase((opened) => {
  db = opened;
  runs = new ExperimentRunRepository(db);
});

function create(extra: { name?: string; owner?: string | null; visibility?: Visibility } = {}) {
  return runs.create({
    name: extra.name ?? `run-${randomUUID()}`,
    description: 'k=5 against k=10',
    hypothesis: 'more neighbours help rare terms',
    config: { k: 5 },
    provenance: { git_sha: 'abc123' },
    tags: ['knn'],
    ownership: { owner_user_id: extra.owner ?? null, visibility: extra.visibility ?? 'owner' },
  });
}

const idsOf = (rows: { id: string }[]): unknown[] => rows.map((r) => r['id']);

describe('ExperimentRunRepository.create and get', () => {
  it('create stores a planned run, which get reads back', async () => {
    const owner = randomUUID();
    const name = `run-${randomUUID()}`;
    const created = await create({ name, owner });

    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name,
      status: 'planned',
      description: 'k=5 against k=10',
      hypothesis: 'more neighbours help rare terms',
      findings: null,
      config: { k: 5 },
      provenance: { git_sha: 'abc123' },
      tags: ['knn'],
      started_at: null,
      finished_at: null,
      created_at: expect.stringMatching(ISO_MICROS),
      k: null,
      plm: null,
      propagation: null,
      reranker_spec_id: null,
      eval_set_name: null,
      axis_tuple_shortid: null,
      feature_schema_sha: null,
      schema_sha_v2: null,
      eval_set_manifest_sha: null,
      ensemble_spec: null,
      owner_user_id: owner,
      visibility: 'owner',
    });
    expect(await runs.get(created['id'])).toEqual(created);
  });

  it("create refuses a name the owner already uses (conflict); another owner's runs do not count", async () => {
    const name = `run-${randomUUID()}`;
    const [alice, bob] = [randomUUID(), randomUUID()];
    await create({ name, owner: alice });
    const error = await domainError(create({ name, owner: alice }));
    expect(error.code).toBe('conflict');
    expect(error.message).toBe(`an experiment run named '${name}' already exists among the owner's runs`);
    await create({ name, owner: bob });
    // Runs without an owner share one namespace.
    await create({ name, owner: null });
    expect((await domainError(create({ name, owner: null }))).code).toBe('conflict');
    const rows = await db.query<{ owner_user_id: string | null }[]>(
      `SELECT owner_user_id FROM experiment_run WHERE name = $1 ORDER BY created_at`,
      [name],
    );
    expect(rows.map((r) => r.owner_user_id)).toEqual([alice, bob, null]);
  });

  it('get fails not_found for an unknown id', async () => {
    const error = await domainError(runs.get(randomUUID()));
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('Experiment run not found');
  });
});

describe('ExperimentRunRepository.list', () => {
  it('is newest first within the scope, filtered by status, a page at a time with `after`', async () => {
    const owner = randomUUID();
    const a = await create({ owner });
    const b = await create({ owner });
    const c = await create({ owner });
    await runs.update(b['id'], { status: 'running' });
    const mine: ListScope = { kind: 'own', userId: owner };

    expect(idsOf(await runs.list({ scope: mine, limit: 10 }))).toEqual([c['id'], b['id'], a['id']]);
    expect(idsOf(await runs.list({ scope: mine, status: 'planned', limit: 10 }))).toEqual([c['id'], a['id']]);
    expect(idsOf(await runs.list({ scope: mine, status: 'running', limit: 10 }))).toEqual([b['id']]);

    const page = await runs.list({ scope: mine, limit: 2 });
    expect(idsOf(page)).toEqual([c['id'], b['id']]);
    const next = await runs.list({ scope: mine, limit: 2, after: page[1]!['created_at'] });
    expect(idsOf(next)).toEqual([a['id']]);
  });

  it('shows each scope the rows it may see; unlisted rows only to staff', async () => {
    const me = randomUUID();
    const someone = randomUUID();
    const myOwn = await create({ owner: me, visibility: 'owner' });
    const myUnlisted = await create({ owner: me, visibility: 'unlisted' });
    const theirOwn = await create({ owner: someone, visibility: 'owner' });
    const theirPublic = await create({ owner: someone, visibility: 'public' });
    const ours = new Set(idsOf([myOwn, myUnlisted, theirOwn, theirPublic]));
    const visible = async (scope: ListScope): Promise<unknown[]> =>
      idsOf(await runs.list({ scope, limit: 1000 })).filter((id) => ours.has(id));

    expect(await visible({ kind: 'all' })).toEqual([
      theirPublic['id'],
      theirOwn['id'],
      myUnlisted['id'],
      myOwn['id'],
    ]);
    expect(await visible({ kind: 'own', userId: me })).toEqual([myOwn['id']]);
    expect(await visible({ kind: 'public_and_own', userId: me })).toEqual([theirPublic['id'], myOwn['id']]);
    expect(await visible({ kind: 'public_and_own', userId: null })).toEqual([theirPublic['id']]);
  });
});

describe('ExperimentRunRepository.update', () => {
  it('changes only the given fields', async () => {
    const run = await create();
    const id = run['id'];

    const updated = await runs.update(id, { findings: 'k=10 wins on NK', tags: ['knn', 'nk'] });
    expect(updated).toEqual({ ...run, findings: 'k=10 wins on NK', tags: ['knn', 'nk'] });

    const again = await runs.update(id, {
      description: null,
      hypothesis: 'changed',
      config: { k: 10 },
      provenance: { git_sha: 'def456' },
    });
    expect(again).toEqual({
      ...updated,
      description: null,
      hypothesis: 'changed',
      config: { k: 10 },
      provenance: { git_sha: 'def456' },
    });
    expect(await runs.update(id, {})).toEqual(again);
    expect(await runs.get(id)).toEqual(again);
  });

  it('planned -> running stamps started_at; running -> done stamps finished_at; re-entering keeps them', async () => {
    const id = (await create())['id'];

    const started = await runs.update(id, { status: 'running' });
    expect(started).toMatchObject({
      status: 'running',
      started_at: expect.stringMatching(ISO_MICROS),
      finished_at: null,
    });
    expect(await runs.update(id, { status: 'running' })).toEqual(started);

    const done = await runs.update(id, { status: 'done' });
    expect(done).toMatchObject({
      status: 'done',
      started_at: started['started_at'],
      finished_at: expect.stringMatching(ISO_MICROS),
    });

    // done <-> abandoned is a correction: the stamps stay.
    const abandoned = await runs.update(id, { status: 'abandoned' });
    expect(abandoned).toEqual({ ...done, status: 'abandoned' });
    expect(await runs.update(id, { status: 'done' })).toEqual(done);
  });

  it('planned -> abandoned stamps finished_at only', async () => {
    const id = (await create())['id'];
    expect(await runs.update(id, { status: 'abandoned' })).toMatchObject({
      status: 'abandoned',
      started_at: null,
      finished_at: expect.stringMatching(ISO_MICROS),
    });
  });

  it('refuses a backward move (conflict) and then writes none of the other changes', async () => {
    const id = (await create())['id'];
    const running = await runs.update(id, { status: 'running' });

    const back = await domainError(runs.update(id, { status: 'planned', findings: 'should not be kept' }));
    expect(back.code).toBe('conflict');
    expect(back.message).toBe('an experiment run cannot move from running to planned');
    expect(await runs.get(id)).toEqual(running);

    const done = await runs.update(id, { status: 'done' });
    const reopen = await domainError(runs.update(id, { status: 'running', tags: ['changed'] }));
    expect(reopen.message).toBe('an experiment run cannot move from done to running');
    expect(await runs.get(id)).toEqual(done);
  });

  it('fails not_found for an unknown id', async () => {
    const error = await domainError(runs.update(randomUUID(), { findings: 'x' }));
    expect(error.code).toBe('not_found');
  });
});

describe('ExperimentRunRepository.delete', () => {
  it('removes the run once, freeing its name; again it fails not_found', async () => {
    const name = `run-${randomUUID()}`;
    const id = (await create({ name }))['id'];

    await runs.delete(id);
    expect((await domainError(runs.get(id))).code).toBe('not_found');
    expect((await domainError(runs.delete(id))).code).toBe('not_found');
    expect((await create({ name }))['name']).toBe(name);
  });
});
