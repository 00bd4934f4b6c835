import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables whose rows belong to whoever made them (docs/security.md, "Owners and visibility"). */
const OWNED_TABLES = ['job', 'query_set', 'prediction_set', 'evaluation_result', 'dataset', 'experiment_run'];

/**
 * Owners and visibility. `owner_user_id` is the account that made the row (null for guests and the
 * system); `visibility` is `owner` (its owner and staff), `unlisted` (anyone holding its id, never
 * listed: a one-click result that was not saved to a history) or `public`; `expires_at` is when the
 * retention purge removes an unlisted row. A job also keeps the role and entry point it was submitted
 * with and the key its quota is charged to, so its follow-ups are checked as that caller.
 *
 * Rows made before this migration have no known owner: they become staff-only, except evaluation
 * results, which the benchmark publishes.
 */
export class AddOwnership1764900000000 implements MigrationInterface {
  name = 'AddOwnership1764900000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of OWNED_TABLES) {
      const visibility = table === 'evaluation_result' ? 'public' : 'owner';
      await q.query(`
        ALTER TABLE ${table}
          ADD COLUMN owner_user_id uuid,
          ADD COLUMN visibility text NOT NULL DEFAULT '${visibility}'
            CHECK (visibility IN ('owner', 'unlisted', 'public')),
          ADD COLUMN expires_at timestamptz`);
      await q.query(`CREATE INDEX ${table}_owner_idx ON ${table} (owner_user_id)`);
      await q.query(
        `CREATE INDEX ${table}_expires_idx ON ${table} (expires_at) WHERE expires_at IS NOT NULL`,
      );
    }
    await q.query(`
      ALTER TABLE job
        ADD COLUMN submitted_role text,
        ADD COLUMN submitted_via text NOT NULL DEFAULT 'api',
        ADD COLUMN quota_key text`);
    // Cached reads ask when a job that changes them last succeeded.
    await q.query(
      `CREATE INDEX job_succeeded_at_idx ON job (operation, finished_at DESC) WHERE status = 'SUCCEEDED'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX job_succeeded_at_idx`);
    await q.query(
      `ALTER TABLE job DROP COLUMN submitted_role, DROP COLUMN submitted_via, DROP COLUMN quota_key`,
    );
    for (const table of OWNED_TABLES) {
      await q.query(`
        ALTER TABLE ${table} DROP COLUMN owner_user_id, DROP COLUMN visibility, DROP COLUMN expires_at`);
    }
  }
}
