import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSupport1764600000000 implements MigrationInterface {
  name = 'CreateSupport1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE support_entry (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        comment text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE support_entry`);
  }
}
