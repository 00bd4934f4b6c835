import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What backs a prediction (docs/prediction.md, "What backs a prediction"):
 * - `prediction_set.reference`: the reference the set was predicted against, as the coordinator
 *   found it (ontology version, annotation set, donor proteins per aspect, donor species, backend,
 *   blend version); null on sets made before.
 * - `prediction_query_summary`: per query, the homologs (or neighbours) its terms could come from
 *   after self-exclusion, the best identity among them, and how many of its terms are its own known
 *   annotations. Sets made before have no rows; readers say so.
 *
 * Down drops both.
 */
export class PredictionProvenance1765600000000 implements MigrationInterface {
  name = 'PredictionProvenance1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE prediction_set ADD COLUMN reference jsonb`);
    await q.query(`
      CREATE TABLE prediction_query_summary (
        prediction_set_id uuid NOT NULL REFERENCES prediction_set(id) ON DELETE CASCADE,
        protein_accession text NOT NULL,
        homologs integer NOT NULL,
        best_identity real,
        known_terms integer NOT NULL DEFAULT 0,
        PRIMARY KEY (prediction_set_id, protein_accession)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE prediction_query_summary`);
    await q.query(`ALTER TABLE prediction_set DROP COLUMN reference`);
  }
}
