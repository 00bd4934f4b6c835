import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The protein name of a protein row, as a biologist names it ('Cellular tumor antigen p53', where
 * the entry name is 'P53_HUMAN'): the text of a UniProt FASTA header before `OS=`, or the "Protein
 * names" cell of a UniProt TSV export (docs/decisions.md, "Protein fields from FASTA headers").
 * Null where the source gives none; proteins stored before read as null until loaded again.
 *
 * Down drops the column.
 */
export class ProteinName1765800000000 implements MigrationInterface {
  name = 'ProteinName1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE protein ADD COLUMN protein_name text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE protein DROP COLUMN protein_name`);
  }
}
