import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateDatasets1764700000000 implements MigrationInterface {
  name = 'CreateDatasets1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dataset (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL UNIQUE,
        operation text NOT NULL CHECK (operation IN ('export_research_dataset','import_by_reference')),
        job_id uuid,
        embedding_config_id uuid,
        ontology_snapshot_id uuid,
        annotation_source text,
        k integer NOT NULL,
        key_prefix text,
        storage_backend text NOT NULL,
        train_uri text NOT NULL,
        eval_uri text,
        manifest_uri text NOT NULL,
        manifest_sha text NOT NULL,
        schema_sha text NOT NULL,
        schema_sha_v2 text,
        n_train_rows bigint NOT NULL,
        n_eval_rows bigint NOT NULL DEFAULT 0,
        train_snapshot_pairs text[] NOT NULL DEFAULT '{}',
        eval_snapshot_pair text,
        producer_version text,
        producer_git_sha text,
        meta jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX dataset_created_idx ON dataset (created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE dataset`);
  }
}
