import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A dataset name is claimed by the export job that will publish it before any file is uploaded under
 * `datasets/<name>/`, so two exports of one name cannot overwrite each other's files. A claim whose
 * job is no longer QUEUED or RUNNING (it failed, was cancelled or deleted) may be taken over.
 */
export class CreateDatasetNameClaim1765100000000 implements MigrationInterface {
  name = 'CreateDatasetNameClaim1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dataset_name_claim (
        name text PRIMARY KEY,
        job_id uuid NOT NULL,
        claimed_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE dataset_name_claim`);
  }
}
