import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An experiment run's name is unique among its owner's runs, no longer across the installation: a
 * name another account already uses is no business of the caller's (docs/security.md). Runs without
 * an owner (made with the credential gate off, or before owners were recorded) share one namespace.
 */
export class ExperimentRunNamePerOwner1765200000000 implements MigrationInterface {
  name = 'ExperimentRunNamePerOwner1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE experiment_run DROP CONSTRAINT experiment_run_name_key`);
    await q.query(
      `CREATE UNIQUE INDEX experiment_run_owner_name_uidx
         ON experiment_run ((COALESCE(owner_user_id, '00000000-0000-0000-0000-000000000000'::uuid)), name)`,
    );
  }

  /** Fails while two owners share a name: rename one of them first. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX experiment_run_owner_name_uidx`);
    await q.query(`ALTER TABLE experiment_run ADD CONSTRAINT experiment_run_name_key UNIQUE (name)`);
  }
}
