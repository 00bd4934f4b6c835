import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The gene name of a query-set entry: its FASTA header's `GN=` (UniProt's
 * `>sp|P04637|P53_HUMAN ... GN=TP53 ...`), the DB Object Symbol (column 3) of its GAF lines
 * (docs/prediction.md, "Downloads"). Null where the header has none, or one the upload does not keep
 * (longer than 200 characters or holding a control character); entries stored before read as null,
 * and their GAF lines repeat the identifier, as before.
 *
 * Down drops the column.
 */
export class QuerySetEntryGeneName1765400000000 implements MigrationInterface {
  name = 'QuerySetEntryGeneName1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE query_set_entry ADD COLUMN gene_name text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE query_set_entry DROP COLUMN gene_name`);
  }
}
