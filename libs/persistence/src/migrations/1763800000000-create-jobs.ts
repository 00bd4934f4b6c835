import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateJobs1763800000000 implements MigrationInterface {
  name = 'CreateJobs1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE job (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        operation text NOT NULL,
        queue_name text NOT NULL,
        status text NOT NULL CHECK (status IN ('QUEUED','RUNNING','SUCCEEDED','FAILED','CANCELLED')),
        payload jsonb NOT NULL DEFAULT '{}'::jsonb,
        meta jsonb NOT NULL DEFAULT '{}'::jsonb,
        result jsonb,
        parent_job_id uuid REFERENCES job(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        started_at timestamptz,
        finished_at timestamptz,
        progress_current integer,
        progress_total integer,
        error_code text,
        error_message text,
        dedup_key text CHECK (dedup_key ~ '^[0-9a-f]{16}$'),
        leased_until timestamptz,
        requeue_count integer NOT NULL DEFAULT 0,
        description text,
        findings text,
        tags text[] NOT NULL DEFAULT '{}'
      )`);
    // At most one active job per (operation, payload): concurrent duplicates fail on this index.
    await q.query(
      `CREATE UNIQUE INDEX job_dedup_active_uidx ON job (dedup_key) WHERE status IN ('QUEUED','RUNNING')`,
    );
    await q.query(`CREATE INDEX job_created_at_idx ON job (created_at DESC)`);
    await q.query(`CREATE INDEX job_parent_job_id_idx ON job (parent_job_id)`);
    await q.query(`CREATE INDEX job_lease_idx ON job (leased_until) WHERE leased_until IS NOT NULL`);
    await q.query(`
      CREATE TABLE job_event (
        id bigserial PRIMARY KEY,
        job_id uuid NOT NULL REFERENCES job(id) ON DELETE CASCADE,
        ts timestamptz NOT NULL DEFAULT clock_timestamp(),
        level text NOT NULL DEFAULT 'info',
        event text NOT NULL,
        message text,
        fields jsonb NOT NULL DEFAULT '{}'::jsonb
      )`);
    await q.query(`CREATE INDEX job_event_job_ts_idx ON job_event (job_id, ts DESC, id DESC)`);
    await q.query(`
      CREATE TABLE job_comment (
        id serial PRIMARY KEY,
        job_id uuid NOT NULL REFERENCES job(id) ON DELETE CASCADE,
        author text,
        body text NOT NULL CHECK (length(btrim(body)) >= 1),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX job_comment_job_created_idx ON job_comment (job_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE job_comment`);
    await q.query(`DROP TABLE job_event`);
    await q.query(`DROP TABLE job`);
  }
}
