import { UserView } from '@svc/contracts';
import { mintLinkToken } from '@svc/domain';
import { DataSource } from 'typeorm';
import { AuthTokenRepository } from './auth-token.repository';
import { useRunDatabase } from '../../testing/repository-test-support';
import { insertUser } from '../../testing/repository-fixtures';

// AuthTokenRepository against the run's PostgreSQL: an e-mailed token is used at most once, only for
// its kind and before it expires, and a password change makes every unused token of the user void.

let db: DataSource;
let tokens: AuthTokenRepository;

useRunDatabase(
  (opened) => {
    db = opened;
    tokens = new AuthTokenRepository(db);
  },
  { poolSize: 4 },
);

function user(): Promise<UserView> {
  return insertUser(db, 'token');
}

describe('AuthTokenRepository', () => {
  it('consume returns the user of a fresh token once, then null', async () => {
    const owner = await user();
    const token = mintLinkToken();
    await tokens.create({ userId: owner.id, kind: 'magic_link', tokenHash: token.hash, ttlSeconds: 900 });

    expect(await tokens.consume(token.hash, 'magic_link')).toBe(owner.id);
    expect(await tokens.consume(token.hash, 'magic_link')).toBeNull();
  });

  it('stores only the hash it is given, with an expiry ttlSeconds from now', async () => {
    const owner = await user();
    const token = mintLinkToken();
    await tokens.create({
      userId: owner.id,
      kind: 'password_reset',
      tokenHash: token.hash,
      ttlSeconds: 3600,
    });

    const [row] = await db.query<{ kind: string; ttl: number; used_at: Date | null }[]>(
      `SELECT kind, EXTRACT(EPOCH FROM (expires_at - created_at))::float8 AS ttl, used_at
         FROM auth_token WHERE token_hash = $1`,
      [token.hash],
    );
    expect(row!.kind).toBe('password_reset');
    expect(row!.ttl).toBeCloseTo(3600, 0);
    expect(row!.used_at).toBeNull();
    const [raw] = await db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM auth_token WHERE token_hash = $1`,
      [token.raw],
    );
    expect(raw!.n).toBe(0);
  });

  it('consume refuses a token of the other kind, and leaves it usable for its own', async () => {
    const owner = await user();
    const token = mintLinkToken();
    await tokens.create({ userId: owner.id, kind: 'password_reset', tokenHash: token.hash, ttlSeconds: 900 });

    expect(await tokens.consume(token.hash, 'magic_link')).toBeNull();
    expect(await tokens.consume(token.hash, 'password_reset')).toBe(owner.id);
  });

  it('consume refuses an expired token and an unknown one', async () => {
    const owner = await user();
    const expired = mintLinkToken();
    await tokens.create({ userId: owner.id, kind: 'magic_link', tokenHash: expired.hash, ttlSeconds: -1 });

    expect(await tokens.consume(expired.hash, 'magic_link')).toBeNull();
    expect(await tokens.consume(mintLinkToken().hash, 'magic_link')).toBeNull();
  });

  it('gives a token to only one of several concurrent consumers', async () => {
    const owner = await user();
    const token = mintLinkToken();
    await tokens.create({ userId: owner.id, kind: 'magic_link', tokenHash: token.hash, ttlSeconds: 900 });

    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () => tokens.consume(token.hash, 'magic_link')),
    );
    expect(outcomes.filter((o) => o === owner.id)).toHaveLength(1);
    expect(outcomes.filter((o) => o === null)).toHaveLength(3);
  });

  it("invalidateAll voids every unused token of that user, of both kinds, and nobody else's", async () => {
    const owner = await user();
    const other = await user();
    const link = mintLinkToken();
    const reset = mintLinkToken();
    const theirs = mintLinkToken();
    await tokens.create({ userId: owner.id, kind: 'magic_link', tokenHash: link.hash, ttlSeconds: 900 });
    await tokens.create({ userId: owner.id, kind: 'password_reset', tokenHash: reset.hash, ttlSeconds: 900 });
    await tokens.create({
      userId: other.id,
      kind: 'password_reset',
      tokenHash: theirs.hash,
      ttlSeconds: 900,
    });

    await tokens.invalidateAll(owner.id);
    expect(await tokens.consume(link.hash, 'magic_link')).toBeNull();
    expect(await tokens.consume(reset.hash, 'password_reset')).toBeNull();
    expect(await tokens.consume(theirs.hash, 'password_reset')).toBe(other.id);
  });

  it('invalidateAll keeps the time a token was already used', async () => {
    const owner = await user();
    const token = mintLinkToken();
    await tokens.create({ userId: owner.id, kind: 'magic_link', tokenHash: token.hash, ttlSeconds: 900 });
    await tokens.consume(token.hash, 'magic_link');
    const usedAt = async (): Promise<Date> => {
      const [row] = await db.query<{ used_at: Date }[]>(
        `SELECT used_at FROM auth_token WHERE token_hash = $1`,
        [token.hash],
      );
      return row!.used_at;
    };
    const before = await usedAt();
    await tokens.invalidateAll(owner.id);
    expect(await usedAt()).toEqual(before);
  });
});
