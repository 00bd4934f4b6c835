import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { CanonicalEmbeddingConfig, md5Hex } from '@svc/domain';
import { DataSource } from 'typeorm';
import { PredictionSetRepository } from '../predictions/prediction-set.repository';
import { ProteinRepository } from '../reference/protein.repository';
import { EmbeddingRepository } from './embedding.repository';
import { domainError, useRunDatabase, useOwnDatabase } from '../../testing/repository-test-support';
import {
  deleteFixtures,
  goRelease,
  insertAnnotationSet,
  insertPredictionSet,
  insertQuerySet,
  insertSnapshot,
  proteinEntry,
} from '../../testing/repository-fixtures';

// EmbeddingRepository against the run's PostgreSQL: configs stored once per recipe id, vectors
// written once per (config, sequence, chunk) and read back bit for bit, what is left to embed, the
// config delete cascade, and (in a database of its own) the whole-table picks and maintenance.

let db: DataSource;
let embeddings: EmbeddingRepository;
let proteins: ProteinRepository;

useRunDatabase((opened) => {
  db = opened;
  embeddings = new EmbeddingRepository(db);
  proteins = new ProteinRepository(db);
});

function config(extra: Partial<CanonicalEmbeddingConfig> = {}): CanonicalEmbeddingConfig {
  return {
    id: randomUUID(),
    model_name: 'kmer-3',
    model_backend: 'kmer',
    layer_indices: [0, 2],
    layer_agg: 'concat',
    pooling: 'mean_max',
    normalize_residues: true,
    normalize: false,
    max_length: 512,
    use_chunking: true,
    chunk_size: 200,
    chunk_overlap: 20,
    embedding_scale: 0.5,
    description: 'a test recipe',
    ...extra,
  };
}

const AMINO_ACIDS = 'ACDEFGHIKLMNPQRSTVWY';

function randomSequence(length = 30): string {
  return Array.from({ length }, () => AMINO_ACIDS[randomInt(AMINO_ACIDS.length)]).join('');
}

/** Stores sequences (no protein) and gives their ids in order. */
async function storeSequences(
  repository: ProteinRepository,
  target: DataSource,
  texts: string[],
): Promise<number[]> {
  const ids = await repository.upsertSequences(
    target,
    texts.map((sequence) => ({ sequence, hash: md5Hex(sequence) })),
  );
  return texts.map((t) => ids.get(md5Hex(t))!);
}

const vector = (...values: number[]) => new Float32Array(values);

describe('EmbeddingRepository', () => {
  const tag = `EMB${randomBytes(4).toString('hex').toUpperCase()}`;

  it('saveConfig stores a recipe once: the same id again is returned as stored, not created', async () => {
    const recipe = config();
    const first = await embeddings.saveConfig(recipe);
    expect(first).toEqual({
      created: true,
      config: {
        ...recipe,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
        embedding_count: 0,
      },
    });
    const again = await embeddings.saveConfig({ ...recipe, description: 'another description' });
    expect(again).toEqual({ created: false, config: first.config });
    expect(await embeddings.findConfig(recipe.id)).toEqual(first.config);
    expect(await embeddings.getConfig(recipe.id)).toEqual(first.config);
  });

  it('findConfig gives null, getConfig and deleteConfig a not_found error, for an unknown config', async () => {
    expect(await embeddings.findConfig(randomUUID())).toBeNull();
    expect(await domainError(embeddings.getConfig(randomUUID()))).toMatchObject({
      code: 'not_found',
      message: 'Embedding config not found',
    });
    expect(await domainError(embeddings.deleteConfig(randomUUID()))).toMatchObject({ code: 'not_found' });
  });

  it('listConfigs gives every config with its embedded-sequence count, newest first', async () => {
    const older = (await embeddings.saveConfig(config())).config;
    const newer = (await embeddings.saveConfig(config({ model_name: 'kmer-4' }))).config;
    const [s1, s2] = await storeSequences(proteins, db, [randomSequence(), randomSequence()]);
    await embeddings.writeVectors(newer.id, [
      { sequenceId: s1!, chunkIndex: 0, vector: vector(1) },
      { sequenceId: s1!, chunkIndex: 1, vector: vector(2) },
      { sequenceId: s2!, chunkIndex: 0, vector: vector(3) },
    ]);
    const listed = await embeddings.listConfigs();
    const ids = listed.map((c) => c.id);
    expect(ids.indexOf(newer.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(listed.find((c) => c.id === newer.id)).toEqual({ ...newer, embedding_count: 2 });
    expect(listed.find((c) => c.id === older.id)).toEqual(older);
    await embeddings.deleteConfig(newer.id);
    await embeddings.deleteConfig(older.id);
  });

  it('writeVectors stores each (config, sequence, chunk) once; loadVectors reads them back exactly, in order', async () => {
    const { id } = (await embeddings.saveConfig(config())).config;
    const [a, b, c] = await storeSequences(proteins, db, [
      randomSequence(),
      randomSequence(),
      randomSequence(),
    ]);
    const written = await embeddings.writeVectors(id, [
      { sequenceId: b!, chunkIndex: 1, vector: vector(0.1, -2.5, 3e-8) },
      { sequenceId: a!, chunkIndex: 0, vector: vector(1, 2, 3) },
      { sequenceId: b!, chunkIndex: 0, vector: vector(-0, 1e30, -7.25) },
    ]);
    expect(written).toBe(3);
    // Present already: kept as it was, and not counted.
    expect(
      await embeddings.writeVectors(id, [
        { sequenceId: a!, chunkIndex: 0, vector: vector(9, 9, 9) },
        { sequenceId: c!, chunkIndex: 0, vector: vector(4, 5, 6) },
      ]),
    ).toBe(1);
    expect(await embeddings.writeVectors(id, [])).toBe(0);

    // One statement stored a, b and c: their ids rise in that order.
    expect(a! < b! && b! < c!).toBe(true);
    const all = await embeddings.loadVectors(id);
    expect(all).toEqual([
      { sequenceId: a, chunkIndex: 0, vector: vector(1, 2, 3) },
      { sequenceId: b, chunkIndex: 0, vector: vector(-0, 1e30, -7.25) },
      { sequenceId: b, chunkIndex: 1, vector: vector(0.1, -2.5, 3e-8) },
      { sequenceId: c, chunkIndex: 0, vector: vector(4, 5, 6) },
    ]);
    expect(Object.is(all[1]!.vector[0], -0)).toBe(true);
    expect((await embeddings.loadVectors(id, [c!, b!])).map((v) => [v.sequenceId, v.chunkIndex])).toEqual([
      [b, 0],
      [b, 1],
      [c, 0],
    ]);
    expect(await embeddings.loadVectors(id, [])).toEqual([]);
    expect((await embeddings.getConfig(id)).embedding_count).toBe(3);
    await embeddings.deleteConfig(id);
  });

  it('writeVectors in the caller’s transaction commits or rolls back with it', async () => {
    const { id } = (await embeddings.saveConfig(config())).config;
    const [s] = await storeSequences(proteins, db, [randomSequence()]);
    await expect(
      db.transaction(async (tx) => {
        expect(
          await embeddings.writeVectors(id, [{ sequenceId: s!, chunkIndex: 0, vector: vector(1) }], tx),
        ).toBe(1);
        throw new Error('the progress tick failed');
      }),
    ).rejects.toThrow('the progress tick failed');
    expect(await embeddings.loadVectors(id)).toEqual([]);
    await db.transaction((tx) =>
      embeddings.writeVectors(id, [{ sequenceId: s!, chunkIndex: 0, vector: vector(1) }], tx),
    );
    expect(await embeddings.loadVectors(id)).toEqual([{ sequenceId: s, chunkIndex: 0, vector: vector(1) }]);
    await embeddings.deleteConfig(id);
  });

  it('sequences gives the stored sequences of these ids, by id', async () => {
    const texts = [randomSequence(12), randomSequence(13)];
    const [x, y] = await storeSequences(proteins, db, texts);
    expect(await embeddings.sequences([y!, x!, 2_000_000_000])).toEqual(
      [
        { id: x, sequence: texts[0] },
        { id: y, sequence: texts[1] },
      ].sort((p, q) => p.id! - q.id!),
    );
    expect(await embeddings.sequences([])).toEqual([]);
  });

  it('sequencesToEmbed gives a query set’s distinct sequences (or every protein’s), without embedded ones when asked', async () => {
    const { id } = (await embeddings.saveConfig(config())).config;
    const [shared, lone, proteinOnly] = [randomSequence(), randomSequence(), randomSequence()];
    const querySetId = await insertQuerySet(db, `set-${tag}`, [
      ['q1', shared],
      ['q2', lone],
      ['q3', shared],
    ]);
    await proteins.storeWithSequences([proteinEntry(`${tag}-P`, proteinOnly)]);
    const [sharedId, loneId, proteinId] = await storeSequences(proteins, db, [shared, lone, proteinOnly]);

    expect(await embeddings.sequencesToEmbed({ configId: id, querySetId, skipExisting: true })).toEqual(
      [sharedId, loneId].sort((p, q) => p! - q!),
    );
    await embeddings.writeVectors(id, [{ sequenceId: sharedId!, chunkIndex: 0, vector: vector(1) }]);
    expect(await embeddings.sequencesToEmbed({ configId: id, querySetId, skipExisting: true })).toEqual([
      loneId,
    ]);
    expect(await embeddings.sequencesToEmbed({ configId: id, querySetId, skipExisting: false })).toEqual(
      [sharedId, loneId].sort((p, q) => p! - q!),
    );

    // Without a query set: every protein's sequence (other suites' proteins included).
    const everyProtein = await embeddings.sequencesToEmbed({
      configId: id,
      querySetId: null,
      skipExisting: false,
    });
    expect(everyProtein).toContain(proteinId);
    expect(everyProtein).not.toContain(loneId);
    expect([...everyProtein].sort((p, q) => p - q)).toEqual(everyProtein);
    await embeddings.writeVectors(id, [{ sequenceId: proteinId!, chunkIndex: 0, vector: vector(1) }]);
    expect(
      await embeddings.sequencesToEmbed({ configId: id, querySetId: null, skipExisting: true }),
    ).not.toContain(proteinId);
    await embeddings.deleteConfig(id);
  });

  it('deleteConfig removes the config with its embeddings, prediction sets and their predictions', async () => {
    const { id } = (await embeddings.saveConfig(config())).config;
    const keep = (await embeddings.saveConfig(config())).config.id;
    const [s1, s2] = await storeSequences(proteins, db, [randomSequence(), randomSequence()]);
    await embeddings.writeVectors(id, [
      { sequenceId: s1!, chunkIndex: 0, vector: vector(1) },
      { sequenceId: s1!, chunkIndex: 1, vector: vector(1) },
      { sequenceId: s2!, chunkIndex: 0, vector: vector(1) },
    ]);
    await embeddings.writeVectors(keep, [{ sequenceId: s1!, chunkIndex: 0, vector: vector(2) }]);

    const snapshot = await insertSnapshot(db, goRelease([['GO:0000001', 'F']]));
    const annotationSetId = await insertAnnotationSet(db, snapshot.id);
    const predictionSets = new PredictionSetRepository(db);
    const newSet = (configId: string) =>
      insertPredictionSet(db, { configId, annotationSetId, snapshotId: snapshot.id }, { query_count: 1 });
    const doomedSet = await newSet(id);
    const keptSet = await newSet(keep);
    const row = {
      protein_accession: `${tag}-Q`,
      go_term_id: 1,
      go_id: 'GO:0000001',
      aspect: 'F',
      distance: 0.1,
    };
    await predictionSets.writeRows(doomedSet, [
      { ...row, ref_protein_accession: 'R1', vote_count: 1, k_position: 1 },
      { ...row, ref_protein_accession: 'R2', vote_count: 1, k_position: 2 },
    ]);
    await predictionSets.writeRows(keptSet, [
      { ...row, ref_protein_accession: 'R1', vote_count: 1, k_position: 1 },
    ]);

    expect(await embeddings.deleteConfig(id)).toEqual({
      id,
      deleted: true,
      embeddings_deleted: 3,
      predictions_deleted: 2,
      prediction_sets_deleted: 1,
    });
    expect(await embeddings.findConfig(id)).toBeNull();
    expect(await predictionSets.find(doomedSet)).toBeNull();
    expect(await db.query(`SELECT 1 FROM prediction_row WHERE prediction_set_id = $1`, [doomedSet])).toEqual(
      [],
    );
    // The other config keeps everything.
    expect((await predictionSets.detail(keptSet))['prediction_count']).toBe(1);
    expect(await embeddings.loadVectors(keep)).toHaveLength(1);
    await embeddings.deleteConfig(keep);
    await deleteFixtures(db, { annotationSetIds: [annotationSetId] });
  });
});

describe('EmbeddingRepository whole-table reads (a database of its own: they read every config and embedding)', () => {
  let own: DataSource;
  let repository: EmbeddingRepository;
  let ownProteins: ProteinRepository;

  useOwnDatabase('embeddings', (opened) => {
    own = opened;
    repository = new EmbeddingRepository(own);
    ownProteins = new ProteinRepository(own);
  });

  it('mostEmbeddedConfig: null without configs, else the one with the most embeddings, the oldest among equals', async () => {
    expect(await repository.mostEmbeddedConfig()).toBeNull();
    const older = (await repository.saveConfig(config())).config.id;
    const newer = (await repository.saveConfig(config())).config.id;
    expect(await repository.mostEmbeddedConfig()).toBe(older);

    const [s1, s2] = await storeSequences(ownProteins, own, [randomSequence(), randomSequence()]);
    await repository.writeVectors(newer, [{ sequenceId: s1!, chunkIndex: 0, vector: vector(1) }]);
    expect(await repository.mostEmbeddedConfig()).toBe(newer);
    await repository.writeVectors(older, [{ sequenceId: s2!, chunkIndex: 0, vector: vector(1) }]);
    expect(await repository.mostEmbeddedConfig()).toBe(older);
    await repository.writeVectors(newer, [{ sequenceId: s2!, chunkIndex: 0, vector: vector(1) }]);
    expect(await repository.mostEmbeddedConfig()).toBe(newer);
  });

  it('countUnindexed / deleteUnindexed find and drop embeddings of sequences no protein or query set uses', async () => {
    // The test above embedded sequences of no protein: start from no embedding at all.
    await own.query(`DELETE FROM embedding`);
    const { id } = (await repository.saveConfig(config())).config;
    const [ofProtein, ofQuery, orphan] = [randomSequence(), randomSequence(), randomSequence()];
    await ownProteins.storeWithSequences([proteinEntry('P1', ofProtein)]);
    await insertQuerySet(own, 'queries', [['q1', ofQuery]]);
    const [p, q, o] = await storeSequences(ownProteins, own, [ofProtein, ofQuery, orphan]);
    await repository.writeVectors(id, [
      { sequenceId: p!, chunkIndex: 0, vector: vector(1) },
      { sequenceId: q!, chunkIndex: 0, vector: vector(2) },
      { sequenceId: o!, chunkIndex: 0, vector: vector(3) },
      { sequenceId: o!, chunkIndex: 1, vector: vector(4) },
    ]);

    expect(await repository.countUnindexed()).toBe(2);
    expect(await repository.deleteUnindexed()).toBe(2);
    expect(await repository.countUnindexed()).toBe(0);
    expect((await repository.loadVectors(id)).map((v) => v.sequenceId).sort((x, y) => x - y)).toEqual(
      [p, q].sort((x, y) => x! - y!),
    );
    expect(await repository.deleteUnindexed()).toBe(0);
  });

  it("publicEmbeddingCounts counts per config the proteins' and public query sets' sequences only", async () => {
    const { id } = (await repository.saveConfig(config())).config;
    const [ofProtein, ofPrivate, ofPublic, orphan] = [1, 2, 3, 4].map(() => randomSequence());
    await ownProteins.storeWithSequences([proteinEntry('PUB1', ofProtein!)]);
    await insertQuerySet(own, 'private', [['q1', ofPrivate!]]);
    const publicSet = await insertQuerySet(own, 'public', [['q1', ofPublic!]]);
    await own.query(`UPDATE query_set SET visibility = 'public' WHERE id = $1`, [publicSet]);
    const ids = await storeSequences(ownProteins, own, [ofProtein!, ofPrivate!, ofPublic!, orphan!]);
    await repository.writeVectors(
      id,
      ids.flatMap((sequenceId) =>
        [0, 1].map((chunkIndex) => ({ sequenceId, chunkIndex, vector: vector(1) })),
      ),
    );

    expect((await repository.getConfig(id)).embedding_count).toBe(4);
    expect((await repository.publicEmbeddingCounts(id)).get(id)).toBe(2);
    expect((await repository.publicEmbeddingCounts()).get(id)).toBe(2);
    const other = (await repository.saveConfig(config())).config.id;
    expect((await repository.publicEmbeddingCounts(other)).get(other)).toBeUndefined();
  });
});
