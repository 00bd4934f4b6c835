import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A snapshot's content hash (`oboContentSha256` of what it stores): a release is its content, so a
 * file that reuses a loaded `data-version` with other content is refused, not mapped onto the
 * stored snapshot. Snapshots stored before read as null and get their hash from their stored
 * content the first time a file with their version is loaded.
 *
 * Down drops the column.
 */
export class OntologyContentHash1765500000000 implements MigrationInterface {
  name = 'OntologyContentHash1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ontology_snapshot ADD COLUMN content_sha256 text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ontology_snapshot DROP COLUMN content_sha256`);
  }
}
