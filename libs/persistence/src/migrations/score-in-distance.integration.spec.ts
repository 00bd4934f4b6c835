import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../data-source';
import { dropDatabase, ensureDatabase } from '../database-admin';
import { runDatabaseUrl } from '../../testing/repository-test-support';

// The migration that moves a homology-blend row's score into its distance, on a database migrated to
// just before it, with rows as the releases before it wrote them.

const before = MIGRATIONS.slice(
  0,
  MIGRATIONS.findIndex((m) => m.name === 'ScoreInDistance1765300000000'),
);
const last = MIGRATIONS.slice(0, before.length + 1);

function dataSource(url: string, migrations: typeof MIGRATIONS): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    migrations: [...migrations],
    migrationsTableName: 'schema_migrations',
    extra: { max: 1 },
  });
}

describe('migration ScoreInDistance1765300000000', () => {
  const url = new URL(runDatabaseUrl());
  url.pathname = `${url.pathname}_score_${randomBytes(3).toString('hex')}`;

  afterAll(async () => {
    await dropDatabase(url.toString());
  });

  it('gives homology rows distance = 1 - score, keeps embedding rows, and drops the score column', async () => {
    await ensureDatabase(url.toString());
    const old = dataSource(url.toString(), before);
    await old.initialize();
    await old.runMigrations();
    const diamond = randomUUID();
    const kmer = randomUUID();
    await old.transaction(async (tx) => {
      // The rows only: the sets' references are not what this migration reads.
      await tx.query(`SET LOCAL session_replication_role = replica`);
      for (const [id, backend] of [
        [diamond, 'diamond'],
        [kmer, 'numpy'],
      ])
        await tx.query(
          `INSERT INTO prediction_set (id, embedding_config_id, annotation_set_id, ontology_snapshot_id,
             limit_per_entry, search_backend, aspect_separated_knn, feature_schema_sha)
           VALUES ($1, $2, $2, $2, 5, $3, false, 'sha')`,
          [id, randomUUID(), backend],
        );
      const row = `INSERT INTO prediction (prediction_set_id, protein_accession, go_term_id, go_id, aspect,
                     distance, ref_protein_accession, vote_count, k_position, score, features)
                   VALUES ($1, $2, 1, 'GO:0000001', 'F', $3, $4, 1, $5, $6, $7)`;
      await tx.query(row, [diamond, 'Q1', 0.2, 'P1', 1, 0.75, { identity: 0.8 }]);
      await tx.query(row, [diamond, 'Q2', 1, null, null, 0.125, { source: 'prior' }]);
      await tx.query(row, [kmer, 'Q3', 0.5, 'P2', 1, 0.75, {}]);
      await tx.query(row, [kmer, 'Q4', 0.3, 'P3', 1, null, {}]);
    });
    await old.destroy();

    const migrated = dataSource(url.toString(), last);
    await migrated.initialize();
    try {
      expect((await migrated.runMigrations()).map((m) => m.name)).toEqual(['ScoreInDistance1765300000000']);
      const rows = await migrated.query<{ protein_accession: string; distance: number; score: number }[]>(
        `SELECT protein_accession, distance::float8 AS distance, GREATEST(0, 1 - distance::float8) AS score
           FROM prediction ORDER BY protein_accession`,
      );
      const rounded = rows.map((r) => ({
        ...r,
        distance: +r.distance.toFixed(6),
        score: +r.score.toFixed(6),
      }));
      expect(rounded).toEqual([
        // Blend rows: the score they were evaluated with, now carried by the distance.
        { protein_accession: 'Q1', distance: 0.25, score: 0.75 },
        { protein_accession: 'Q2', distance: 0.875, score: 0.125 },
        // Embedding rows keep their cosine distance; their score is the specification's.
        { protein_accession: 'Q3', distance: 0.5, score: 0.5 },
        { protein_accession: 'Q4', distance: 0.3, score: 0.7 },
      ]);
      const columns = await migrated.query<unknown[]>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'prediction' AND column_name = 'score'`,
      );
      expect(columns).toEqual([]);
    } finally {
      await migrated.destroy();
    }
  });
});
