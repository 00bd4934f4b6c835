import { randomInt, randomUUID } from 'node:crypto';
import { md5Hex, Visibility } from '@svc/domain';
import { DataSource } from 'typeorm';
import { ProteinRepository } from './protein.repository';
import { QuerySetEntryInput, QuerySetRepository } from './query-set.repository';
import { domainError, useRunDatabase } from '../../testing/repository-test-support';

// QuerySetRepository against the run's PostgreSQL: a set, its sequences and entries are written in
// one transaction, read back in upload order, listed by ownership scope and deleted with their entries.

let db: DataSource;
let querySets: QuerySetRepository;

useRunDatabase((opened) => {
  db = opened;
  querySets = new QuerySetRepository(db);
});

const AMINO_ACIDS = 'ACDEFGHIKLMNPQRSTVWY';

function randomSequence(length: number): string {
  return Array.from({ length }, () => AMINO_ACIDS[randomInt(AMINO_ACIDS.length)]).join('');
}

function entry(
  accession: string,
  sequence: string,
  extra: Partial<QuerySetEntryInput> = {},
): QuerySetEntryInput {
  return {
    accession,
    sequence,
    hash: md5Hex(sequence),
    species: null,
    taxonomyId: null,
    geneName: null,
    ...extra,
  };
}

const mine = (ownerUserId: string | null, visibility: Visibility, expiresInDays: number | null = null) => ({
  owner_user_id: ownerUserId,
  visibility,
  expiresInDays,
});

describe('QuerySetRepository', () => {
  it('create stores one sequence per distinct string and one entry per record, read back in upload order', async () => {
    const shared = randomSequence(30);
    const other = randomSequence(45);
    const known = randomSequence(20);
    // A sequence stored before (by a protein) is reused, not copied.
    const before = await new ProteinRepository(db).upsertSequences(db, [
      { sequence: known, hash: md5Hex(known) },
    ]);
    const owner = randomUUID();
    const created = await querySets.create({
      name: `set-${randomUUID()}`,
      description: 'three queries',
      entries: [
        entry('q2', shared, { species: 'Homo sapiens', taxonomyId: 9606, geneName: 'TP53' }),
        entry('q1', other, { knownGoIds: ['GO:0003677', 'GO:0005634'] }),
        entry('q3', shared),
        entry('q4', known),
      ],
      ownership: mine(owner, 'owner'),
    });
    expect(created).toEqual({
      id: expect.any(String),
      name: expect.stringMatching(/^set-/),
      description: 'three queries',
      entry_count: 4,
      unique_sequences: 3,
      entries_with_known_terms: 1,
    });

    const detail = await querySets.detail(created['id']);
    expect(detail).toMatchObject({
      id: created['id'],
      name: created['name'],
      description: 'three queries',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      owner_user_id: owner,
      visibility: 'owner',
      expires_at: null,
      entry_count: 4,
    });
    const entries = detail.entries;
    expect(
      entries.map((e) => [
        e['accession'],
        e['length'],
        e['sequence_hash'],
        e['species'],
        e['taxonomy_id'],
        e['gene_name'],
        e['known_go_ids'],
      ]),
    ).toEqual([
      ['q2', 30, md5Hex(shared), 'Homo sapiens', 9606, 'TP53', null],
      ['q1', 45, md5Hex(other), null, null, null, ['GO:0003677', 'GO:0005634']],
      ['q3', 30, md5Hex(shared), null, null, null, null],
      ['q4', 20, md5Hex(known), null, null, null, null],
    ]);
    expect(entries[0]!['sequence_id']).toBe(entries[2]!['sequence_id']);
    expect(entries[3]!['sequence_id']).toBe(before.get(md5Hex(known)));
  });

  it('create sets an expiry the given number of days ahead', async () => {
    const created = await querySets.create({
      name: `set-${randomUUID()}`,
      description: null,
      entries: [entry('q1', randomSequence(10))],
      ownership: mine(null, 'unlisted', 2),
    });
    const detail = await querySets.detail(created['id']);
    expect(detail).toMatchObject({ owner_user_id: null, visibility: 'unlisted', description: null });
    const days = (Date.parse(detail['expires_at'] as string) - Date.parse(detail['created_at'])) / 86_400_000;
    expect(days).toBeCloseTo(2, 3);
  });

  it('create writes nothing when an entry cannot be stored (two records of one accession)', async () => {
    const name = `set-${randomUUID()}`;
    const fresh = randomSequence(25);
    await expect(
      querySets.create({
        name,
        description: null,
        entries: [entry('dup', fresh), entry('dup', randomSequence(25))],
        ownership: mine(null, 'owner'),
      }),
    ).rejects.toThrow(/query_set_entry_query_set_id_accession_key/);
    expect(await db.query(`SELECT id FROM query_set WHERE name = $1`, [name])).toEqual([]);
    expect(await db.query(`SELECT id FROM sequence WHERE sequence_hash = $1`, [md5Hex(fresh)])).toEqual([]);
  });

  it('list shows what a scope may see, newest first, never unlisted sets except to staff', async () => {
    const alice = randomUUID();
    const bob = randomUUID();
    const make = async (owner: string | null, visibility: Visibility, entries = 1) =>
      (
        await querySets.create({
          name: `set-${randomUUID()}`,
          description: null,
          entries: Array.from({ length: entries }, (_, i) => entry(`q${i}`, randomSequence(12))),
          ownership: mine(owner, visibility),
        })
      )['id'];
    const alicePrivate = await make(alice, 'owner', 2);
    const alicePublic = await make(alice, 'public');
    const aliceUnlisted = await make(alice, 'unlisted');
    const bobPrivate = await make(bob, 'owner');
    const guestPublic = await make(null, 'public');
    const ours = [alicePrivate, alicePublic, aliceUnlisted, bobPrivate, guestPublic];
    const visible = async (scope: Parameters<QuerySetRepository['list']>[0]) =>
      (await querySets.list(scope)).map((s) => s['id']).filter((id) => ours.includes(id));

    expect(await visible({ kind: 'all' })).toEqual([
      guestPublic,
      bobPrivate,
      aliceUnlisted,
      alicePublic,
      alicePrivate,
    ]);
    expect(await visible({ kind: 'own', userId: alice })).toEqual([alicePublic, alicePrivate]);
    expect(await visible({ kind: 'public_and_own', userId: alice })).toEqual([
      guestPublic,
      alicePublic,
      alicePrivate,
    ]);
    expect(await visible({ kind: 'public_and_own', userId: bob })).toEqual([
      guestPublic,
      bobPrivate,
      alicePublic,
    ]);
    expect(await visible({ kind: 'public_and_own', userId: null })).toEqual([guestPublic, alicePublic]);

    const listed = (await querySets.list({ kind: 'own', userId: alice })).find(
      (s) => s['id'] === alicePrivate,
    );
    expect(listed).toEqual({
      id: alicePrivate,
      name: expect.stringMatching(/^set-/),
      description: null,
      created_at: expect.any(String),
      owner_user_id: alice,
      visibility: 'owner',
      expires_at: null,
      entry_count: 2,
    });
  });

  it('delete removes the set and its entries and keeps the sequences; an unknown set is not_found', async () => {
    const sequence = randomSequence(18);
    const created = await querySets.create({
      name: `set-${randomUUID()}`,
      description: null,
      entries: [entry('a', sequence), entry('b', sequence), entry('c', randomSequence(18))],
      ownership: mine(null, 'owner'),
    });
    const id = created['id'];
    expect(await querySets.delete(id)).toEqual({ id, deleted: true, entries_deleted: 3 });
    expect(await domainError(querySets.detail(id))).toMatchObject({
      code: 'not_found',
      message: 'Query set not found',
    });
    expect(
      await db.query(`SELECT count(*)::int AS n FROM query_set_entry WHERE query_set_id = $1`, [id]),
    ).toEqual([{ n: 0 }]);
    expect(
      await db.query(`SELECT count(*)::int AS n FROM sequence WHERE sequence_hash = $1`, [md5Hex(sequence)]),
    ).toEqual([{ n: 1 }]);
    expect(await domainError(querySets.delete(id))).toMatchObject({ code: 'not_found' });
    expect(await domainError(querySets.delete(randomUUID()))).toMatchObject({ code: 'not_found' });
  });
});
