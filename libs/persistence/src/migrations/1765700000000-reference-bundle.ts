import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Installed references (docs/reference.md): per name the version installed (its ontology snapshot
 * and annotation set), the files it was read from with their SHA-256 and how each was checked, and
 * what was loaded. A name is installed once per content: a rerun with the same files reuses the row.
 *
 * Down drops the table.
 */
export class ReferenceBundle1765700000000 implements MigrationInterface {
  name = 'ReferenceBundle1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE reference_bundle (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        content_sha256 text NOT NULL,
        ontology_snapshot_id uuid NOT NULL REFERENCES ontology_snapshot(id),
        annotation_set_id uuid NOT NULL REFERENCES annotation_set(id) ON DELETE CASCADE,
        files jsonb NOT NULL,
        stats jsonb NOT NULL DEFAULT '{}'::jsonb,
        mirror text,
        job_id uuid,
        installed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (name, content_sha256)
      )`);
    await q.query(`CREATE INDEX reference_bundle_installed_idx ON reference_bundle (installed_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE reference_bundle`);
  }
}
