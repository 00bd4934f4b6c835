import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One score per prediction row (docs/prediction.md, "Score"): the homology blend for sets predicted
 * with DIAMOND, 1 - d/2 for sets searched by embedding. Rows made before it have none; readers fall
 * back to 1 - d/2 for them, the score those rows were evaluated with.
 *
 * A prior-only row (a term the query gets from the reference frequencies, with no donor) has no
 * reference protein and no neighbour rank.
 */
export class AddPredictionScore1765000000000 implements MigrationInterface {
  name = 'AddPredictionScore1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE prediction
        ADD COLUMN score real CHECK (score >= 0 AND score <= 1),
        ALTER COLUMN ref_protein_accession DROP NOT NULL,
        ALTER COLUMN k_position DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM prediction WHERE ref_protein_accession IS NULL OR k_position IS NULL`);
    await q.query(`
      ALTER TABLE prediction
        DROP COLUMN score,
        ALTER COLUMN ref_protein_accession SET NOT NULL,
        ALTER COLUMN k_position SET NOT NULL`);
  }
}
