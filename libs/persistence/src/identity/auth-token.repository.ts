import { Db, queryOne, queryRows } from '../sql';

export type AuthTokenKind = 'magic_link' | 'password_reset';

/** Single-use tokens sent by e-mail; only their SHA-256 is stored. */
export class AuthTokenRepository {
  constructor(private readonly db: Db) {}

  async create(token: {
    userId: string;
    kind: AuthTokenKind;
    tokenHash: string;
    ttlSeconds: number;
  }): Promise<void> {
    await queryRows(
      this.db,
      `INSERT INTO auth_token (user_id, kind, token_hash, expires_at) VALUES ($1, $2, $3, clock_timestamp() + make_interval(secs => $4))`,
      [token.userId, token.kind, token.tokenHash, token.ttlSeconds],
    );
  }

  /** Makes every unused token of a user unusable (after a password change). */
  async invalidateAll(userId: string): Promise<void> {
    await queryRows(
      this.db,
      `UPDATE auth_token SET used_at = clock_timestamp() WHERE user_id = $1 AND used_at IS NULL`,
      [userId],
    );
  }

  /** Marks the token used and returns its user, or null when it is unknown, used or expired. */
  async consume(tokenHash: string, kind: AuthTokenKind): Promise<string | null> {
    const row = await queryOne<{ user_id: string }>(
      this.db,
      `UPDATE auth_token SET used_at = clock_timestamp()
        WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > clock_timestamp() RETURNING user_id`,
      [tokenHash, kind],
    );
    return row?.user_id ?? null;
  }
}
