import { randomUUID } from 'node:crypto';
import { DomainError } from '@svc/contracts';
import { SCORING_SIGNALS, ScoringWeights } from '@svc/domain';
import { DataSource } from 'typeorm';
import { ScoringConfigRepository } from './scoring-config.repository';
import { domainError, useRunDatabase } from '../../testing/repository-test-support';

// ScoringConfigRepository against the run's PostgreSQL: named weights stored once per name (a
// second one is a conflict, also when two arrive at once), read by id or name, listed and deleted.

let db: DataSource;
let configs: ScoringConfigRepository;

useRunDatabase((opened) => {
  db = opened;
  configs = new ScoringConfigRepository(db);
});

function weights(extra: Partial<ScoringWeights> = {}): ScoringWeights {
  return { ...(Object.fromEntries(SCORING_SIGNALS.map((s) => [s, 0])) as ScoringWeights), ...extra };
}

const name = () => `scoring-${randomUUID()}`;

describe('ScoringConfigRepository', () => {
  it('create stores named weights; find, findByName and get read them back', async () => {
    const created = await configs.create({
      name: name(),
      weights: weights({ embedding_similarity: 0.5, identity_sw: 0.25 }),
      description: 'half embedding, a quarter identity',
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: created.name,
      weights: weights({ embedding_similarity: 0.5, identity_sw: 0.25 }),
      description: 'half embedding, a quarter identity',
      is_preset: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    });
    expect(await configs.find(created.id)).toEqual(created);
    expect(await configs.findByName(created.name)).toEqual(created);
    expect(await configs.get(created.id)).toEqual(created);

    const preset = await configs.create({
      name: name(),
      weights: weights({ prediction_score: 1 }),
      description: null,
      isPreset: true,
    });
    expect(preset).toMatchObject({ is_preset: true, description: null });
  });

  it('find and findByName give null, get and delete a not_found error, for an unknown config', async () => {
    expect(await configs.find(randomUUID())).toBeNull();
    expect(await configs.findByName(name())).toBeNull();
    expect(await domainError(configs.get(randomUUID()))).toMatchObject({
      code: 'not_found',
      message: 'Scoring config not found',
    });
    expect(await domainError(configs.delete(randomUUID()))).toMatchObject({ code: 'not_found' });
  });

  it('a second config of one name is a conflict and leaves the first as it was', async () => {
    const taken = name();
    const first = await configs.create({
      name: taken,
      weights: weights({ identity_nw: 1 }),
      description: null,
    });
    expect(
      await domainError(
        configs.create({ name: taken, weights: weights({ identity_sw: 1 }), description: 'other' }),
      ),
    ).toMatchObject({ code: 'conflict', message: `a scoring config named '${taken}' already exists` });
    expect(await configs.findByName(taken)).toEqual(first);
  });

  it('of two configs of one name created at once, one is stored and the other is a conflict', async () => {
    const taken = name();
    const results = await Promise.allSettled([
      configs.create({ name: taken, weights: weights({ identity_nw: 1 }), description: 'a' }),
      configs.create({ name: taken, weights: weights({ identity_sw: 1 }), description: 'b' }),
    ]);
    const stored = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(stored).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(DomainError);
    expect(refused[0]).toMatchObject({ code: 'conflict' });
    expect(await configs.findByName(taken)).toEqual(stored[0]);
  });

  it('list gives every config, newest first', async () => {
    const older = await configs.create({
      name: name(),
      weights: weights({ identity_nw: 1 }),
      description: null,
    });
    const newer = await configs.create({
      name: name(),
      weights: weights({ identity_nw: 1 }),
      description: null,
    });
    const listed = await configs.list();
    const ids = listed.map((c) => c.id);
    expect(ids.indexOf(newer.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(listed.find((c) => c.id === older.id)).toEqual(older);
  });

  it('delete removes a config, which is then not found', async () => {
    const doomed = await configs.create({
      name: name(),
      weights: weights({ identity_nw: 1 }),
      description: null,
    });
    expect(await configs.delete(doomed.id)).toEqual({ id: doomed.id, deleted: true });
    expect(await configs.find(doomed.id)).toBeNull();
    expect(await configs.findByName(doomed.name)).toBeNull();
    expect(await domainError(configs.delete(doomed.id))).toMatchObject({ code: 'not_found' });
  });
});
