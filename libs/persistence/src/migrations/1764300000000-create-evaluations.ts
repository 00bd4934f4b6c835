import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateEvaluations1764300000000 implements MigrationInterface {
  name = 'CreateEvaluations1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE evaluation_set (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        old_annotation_set_id uuid NOT NULL REFERENCES annotation_set(id) ON DELETE CASCADE,
        new_annotation_set_id uuid NOT NULL REFERENCES annotation_set(id) ON DELETE CASCADE,
        ontology_snapshot_id uuid NOT NULL REFERENCES ontology_snapshot(id) ON DELETE CASCADE,
        job_id uuid,
        evidence text NOT NULL DEFAULT 'experimental',
        stats jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    // Ground truth per category, and the known (old) terms of PK pairs under category KNOWN.
    await q.query(`
      CREATE TABLE evaluation_ground_truth (
        evaluation_set_id uuid NOT NULL REFERENCES evaluation_set(id) ON DELETE CASCADE,
        category text NOT NULL CHECK (category IN ('NK','LK','PK','KNOWN')),
        protein_accession text NOT NULL,
        go_id text NOT NULL,
        aspect text NOT NULL CHECK (aspect IN ('F','P','C')),
        PRIMARY KEY (evaluation_set_id, category, protein_accession, go_id)
      )`);
    await q.query(`
      CREATE TABLE evaluation_result (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        evaluation_set_id uuid NOT NULL REFERENCES evaluation_set(id) ON DELETE CASCADE,
        prediction_set_id uuid REFERENCES prediction_set(id) ON DELETE SET NULL,
        embedding_config_id uuid,
        scoring_config_id uuid REFERENCES scoring_config(id) ON DELETE SET NULL,
        reranker_model_id uuid,
        rerankers jsonb,
        job_id uuid,
        band text,
        frame text,
        th_step double precision NOT NULL,
        max_terms integer,
        ia_source text,
        toi_source text,
        temporal_window text,
        leakage_role text,
        stage text,
        metrics jsonb NOT NULL DEFAULT '{}'::jsonb,
        artifact_prefix text,
        artifact_keys text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(
      `CREATE INDEX evaluation_result_set_idx ON evaluation_result (evaluation_set_id, created_at DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['evaluation_result', 'evaluation_ground_truth', 'evaluation_set']) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
