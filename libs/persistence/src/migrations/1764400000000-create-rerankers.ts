import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateRerankers1764400000000 implements MigrationInterface {
  name = 'CreateRerankers1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE reranker_model (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL UNIQUE,
        artifact_uri text NOT NULL,
        feature_schema_sha text NOT NULL,
        feature_names text[] NOT NULL DEFAULT '{}',
        objective text,
        spec_yaml text NOT NULL,
        run jsonb NOT NULL DEFAULT '{}'::jsonb,
        run_id text,
        metrics jsonb NOT NULL DEFAULT '{}'::jsonb,
        feature_importance jsonb NOT NULL DEFAULT '{}'::jsonb,
        dataset_id text,
        external_source text,
        prediction_set_id text,
        evaluation_set_id text,
        import_kind text NOT NULL CHECK (import_kind IN ('upload','reference')),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE reranker_model`);
  }
}
