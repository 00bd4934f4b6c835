import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SecretRepository } from './secret.repository';
import { useRunDatabase } from '../../testing/repository-test-support';

// SecretRepository against the run's PostgreSQL: the first value generated for a name is stored and
// every later or concurrent caller gets that same value.

let db: DataSource;
let secrets: SecretRepository;

useRunDatabase(
  (opened) => {
    db = opened;
    secrets = new SecretRepository(db);
  },
  { poolSize: 4 },
);

describe('SecretRepository.getOrCreate', () => {
  it('stores the generated value on first use and returns it', async () => {
    const name = `secret-${randomUUID()}`;
    expect(await secrets.getOrCreate(name, () => 'first-value')).toBe('first-value');
    const [row] = await db.query<{ value: string }[]>(`SELECT value FROM service_secret WHERE name = $1`, [
      name,
    ]);
    expect(row).toEqual({ value: 'first-value' });
  });

  it('keeps the first value: a later call gets it whatever it would generate', async () => {
    const name = `secret-${randomUUID()}`;
    await secrets.getOrCreate(name, () => 'first-value');
    expect(await secrets.getOrCreate(name, () => 'second-value')).toBe('first-value');
  });

  it('gives concurrent first callers one and the same value', async () => {
    const name = `secret-${randomUUID()}`;
    const values = await Promise.all(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((v) => secrets.getOrCreate(name, () => `value-${v}`)),
    );
    expect(new Set(values).size).toBe(1);
    expect(values[0]).toMatch(/^value-[a-f]$/);
    const [row] = await db.query<{ value: string }[]>(`SELECT value FROM service_secret WHERE name = $1`, [
      name,
    ]);
    expect(row).toEqual({ value: values[0] });
  });

  it('keeps one value per name', async () => {
    const jwt = `secret-${randomUUID()}`;
    const address = `secret-${randomUUID()}`;
    await secrets.getOrCreate(jwt, () => 'jwt');
    await secrets.getOrCreate(address, () => 'address');
    expect(await secrets.getOrCreate(jwt, () => 'other')).toBe('jwt');
    expect(await secrets.getOrCreate(address, () => 'other')).toBe('address');
  });
});
