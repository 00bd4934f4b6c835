import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateExperimentRuns1764500000000 implements MigrationInterface {
  name = 'CreateExperimentRuns1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE experiment_run (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL UNIQUE,
        status text NOT NULL DEFAULT 'planned' CHECK (status IN ('planned','running','done','abandoned')),
        description text,
        hypothesis text,
        findings text,
        config jsonb NOT NULL DEFAULT '{}'::jsonb,
        provenance jsonb NOT NULL DEFAULT '{}'::jsonb,
        tags text[] NOT NULL DEFAULT '{}',
        started_at timestamptz,
        finished_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        k integer,
        plm text,
        propagation text,
        reranker_spec_id text,
        eval_set_name text,
        axis_tuple_shortid text,
        feature_schema_sha text,
        schema_sha_v2 text,
        eval_set_manifest_sha text,
        ensemble_spec jsonb
      )`);
    await q.query(`CREATE INDEX experiment_run_created_idx ON experiment_run (created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE experiment_run`);
  }
}
