import { DataSource } from 'typeorm';
import { runMigrations } from '../data-source';

/** Drops and recreates the public schema, then applies every migration again. */
export async function resetDatabase(db: DataSource): Promise<string[]> {
  await db.query('DROP SCHEMA public CASCADE');
  await db.query('CREATE SCHEMA public');
  return runMigrations(db);
}
