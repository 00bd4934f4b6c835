import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row per write step that has stored its rows and ticked its parent: a message the broker delivers
 * twice (a lost acknowledgement, a redelivery after a reconnect) finds its key taken and does nothing.
 */
export class CreateStepCommits1764700000000 implements MigrationInterface {
  name = 'CreateStepCommits1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE job_step_commit (
        job_id uuid NOT NULL REFERENCES job(id) ON DELETE CASCADE,
        step_key text NOT NULL,
        committed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (job_id, step_key)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE job_step_commit`);
  }
}
