import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What lets a job survive crashes and redeliveries without doing its work twice: the plan its
 * coordinator made (a re-run after a hand-back or a lease expiry sends the same batches again), and one
 * row per write step that has stored its rows and ticked the job (a step delivered twice finds its key
 * taken and does nothing).
 */
export class CreateJobRecovery1764800000000 implements MigrationInterface {
  name = 'CreateJobRecovery1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE job_plan (
        job_id uuid PRIMARY KEY REFERENCES job(id) ON DELETE CASCADE,
        plan jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
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
    await q.query(`DROP TABLE job_plan`);
  }
}
