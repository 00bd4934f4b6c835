import { ApiKeyView, notFound, Role } from '@svc/contracts';
import { Db, isoColumn, queryOne, queryRows } from '../sql';

const KEY_COLUMNS = [
  'k.id',
  'k.user_id',
  'k.prefix',
  'k.name',
  isoColumn('k.created_at', 'created_at'),
  'k.role',
  isoColumn('k.revoked_at', 'revoked_at'),
  isoColumn('k.last_used_at', 'last_used_at'),
].join(', ');

export interface ApiKeyCandidate {
  id: string;
  user_id: string;
  key_hash: string;
  role: Role | null;
  revoked: boolean;
  owner_role: Role;
  owner_status: string;
}

export class ApiKeyRepository {
  constructor(private readonly db: Db) {}

  async create(key: {
    userId: string;
    name: string;
    prefix: string;
    keyHash: string;
    role: Role;
  }): Promise<ApiKeyView> {
    const row = await queryOne<ApiKeyView>(
      this.db,
      `WITH k AS (INSERT INTO api_key (user_id, name, prefix, key_hash, role) VALUES ($1, $2, $3, $4, $5) RETURNING *)
       SELECT ${KEY_COLUMNS} FROM k`,
      [key.userId, key.name, key.prefix, key.keyHash, key.role],
    );
    if (row === null) throw new Error('insert returned no row');
    return row;
  }

  list(userId?: string): Promise<ApiKeyView[]> {
    return userId === undefined
      ? queryRows<ApiKeyView>(this.db, `SELECT ${KEY_COLUMNS} FROM api_key k ORDER BY k.created_at DESC`)
      : queryRows<ApiKeyView>(
          this.db,
          `SELECT ${KEY_COLUMNS} FROM api_key k WHERE k.user_id = $1 ORDER BY k.created_at DESC`,
          [userId],
        );
  }

  async countActive(userId: string): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.db,
      `SELECT count(*)::int AS n FROM api_key WHERE user_id = $1 AND revoked_at IS NULL`,
      [userId],
    );
    return row?.n ?? 0;
  }

  /** Every key sharing a prefix (prefixes are not unique), with its owner's role and status. */
  candidates(prefix: string): Promise<ApiKeyCandidate[]> {
    return queryRows<ApiKeyCandidate>(
      this.db,
      `SELECT k.id, k.user_id, k.key_hash, k.role, k.revoked_at IS NOT NULL AS revoked,
              u.role AS owner_role, u.status AS owner_status
         FROM api_key k JOIN app_user u ON u.id = k.user_id WHERE k.prefix = $1`,
      [prefix],
    );
  }

  /** One key by id, in the candidate shape (for tokens exchanged for a key). */
  candidateById(id: string): Promise<ApiKeyCandidate[]> {
    return queryRows<ApiKeyCandidate>(
      this.db,
      `SELECT k.id, k.user_id, k.key_hash, k.role, k.revoked_at IS NOT NULL AS revoked,
              u.role AS owner_role, u.status AS owner_status
         FROM api_key k JOIN app_user u ON u.id = k.user_id WHERE k.id = $1::uuid`,
      [id],
    );
  }

  async revoke(id: string): Promise<ApiKeyView> {
    await queryRows(
      this.db,
      `UPDATE api_key SET revoked_at = clock_timestamp() WHERE id = $1 AND revoked_at IS NULL`,
      [id],
    );
    const row = await queryOne<ApiKeyView>(this.db, `SELECT ${KEY_COLUMNS} FROM api_key k WHERE k.id = $1`, [
      id,
    ]);
    if (row === null) throw notFound('API key');
    return row;
  }

  async touch(id: string): Promise<void> {
    await queryRows(this.db, `UPDATE api_key SET last_used_at = clock_timestamp() WHERE id = $1`, [id]);
  }
}
