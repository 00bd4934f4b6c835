import { Db, queryOne, queryRows } from '../sql';

/** Secrets the service generates for itself on first start and every process then shares. */
export class SecretRepository {
  constructor(private readonly db: Db) {}

  async getOrCreate(name: string, generate: () => string): Promise<string> {
    await queryRows(
      this.db,
      `INSERT INTO service_secret (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
      [name, generate()],
    );
    const row = await queryOne<{ value: string }>(
      this.db,
      `SELECT value FROM service_secret WHERE name = $1`,
      [name],
    );
    if (row === null) throw new Error(`secret ${name} missing after insert`);
    return row.value;
  }
}
