import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIdentity1763900000000 implements MigrationInterface {
  name = 'CreateIdentity1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE app_user (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        username text NOT NULL,
        display_name text NOT NULL DEFAULT '',
        password_hash text,
        role text NOT NULL DEFAULT 'researcher' CHECK (role IN ('guest','researcher','operator','admin')),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','active','deactivated')),
        intended_use text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        last_login_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX app_user_email_uidx ON app_user (lower(email))`);
    await q.query(`CREATE UNIQUE INDEX app_user_username_uidx ON app_user (lower(username))`);
    await q.query(`
      CREATE TABLE user_session (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
        jti uuid NOT NULL UNIQUE,
        token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        last_seen_at timestamptz,
        user_agent text,
        client_ip_hash text
      )`);
    await q.query(`CREATE INDEX user_session_user_idx ON user_session (user_id)`);
    await q.query(`
      CREATE TABLE api_key (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
        name text NOT NULL,
        prefix text NOT NULL CHECK (length(prefix) = 8),
        key_hash text NOT NULL CHECK (key_hash ~ '^[0-9a-f]{64}$'),
        role text CHECK (role IN ('guest','researcher','operator','admin')),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_key_prefix_idx ON api_key (prefix)`);
    await q.query(`CREATE INDEX api_key_user_idx ON api_key (user_id)`);
    await q.query(`
      CREATE TABLE auth_token (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('magic_link','password_reset')),
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE quota (
        key text NOT NULL,
        resource text NOT NULL,
        period_start timestamptz NOT NULL,
        count integer NOT NULL DEFAULT 0,
        "limit" integer NOT NULL,
        PRIMARY KEY (key, resource, period_start)
      )`);
    await q.query(`
      CREATE TABLE audit_log (
        id bigserial PRIMARY KEY,
        actor_user_id uuid,
        action text NOT NULL,
        target text,
        payload jsonb NOT NULL DEFAULT '{}'::jsonb,
        occurred_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX audit_log_occurred_idx ON audit_log (occurred_at DESC, id DESC)`);
    // Append-only: rows can be added, never changed or removed.
    await q.query(`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$`);
    await q.query(`
      CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`);
    await q.query(`
      CREATE TABLE visitor_event (
        id bigserial PRIMARY KEY,
        visitor_hash text NOT NULL CHECK (visitor_hash ~ '^[0-9a-f]{16}$'),
        day date NOT NULL,
        method text NOT NULL,
        path text NOT NULL,
        status integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX visitor_event_day_idx ON visitor_event (day)`);
    await q.query(`
      CREATE TABLE service_secret (
        name text PRIMARY KEY,
        value text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'service_secret',
      'visitor_event',
      'audit_log',
      'quota',
      'auth_token',
      'api_key',
      'user_session',
      'app_user',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
    await q.query(`DROP FUNCTION audit_log_append_only()`);
  }
}
