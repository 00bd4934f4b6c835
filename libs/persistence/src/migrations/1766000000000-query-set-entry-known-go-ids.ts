import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The GO terms the submitter already knows of a query-set entry: its FASTA header's `GO=`
 * (`>my_protein_1 GO=GO:0003677,GO:0005634`), a JSON array of distinct GO ids (at most 300, each
 * checked at upload), which inform its prediction as a reference protein's own terms do
 * (docs/prediction.md, "Known terms of a new protein"). Null where the header has none; entries
 * stored before read as null and are predicted as before.
 *
 * Down drops the column.
 */
export class QuerySetEntryKnownGoIds1766000000000 implements MigrationInterface {
  name = 'QuerySetEntryKnownGoIds1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE query_set_entry ADD COLUMN known_go_ids jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE query_set_entry DROP COLUMN known_go_ids`);
  }
}
