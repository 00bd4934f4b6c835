import { Db, queryOne, queryRows } from '../sql';

export interface SessionState {
  user_id: string;
  revoked: boolean;
  expired: boolean;
  user_status: string;
  user_role: string;
}

export class SessionRepository {
  constructor(private readonly db: Db) {}

  async create(session: {
    userId: string;
    jti: string;
    tokenHash: string;
    expiresAt: Date;
    userAgent: string | null;
    clientIpHash: string | null;
  }): Promise<void> {
    await queryRows(
      this.db,
      `INSERT INTO user_session (user_id, jti, token_hash, expires_at, user_agent, client_ip_hash) VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        session.userId,
        session.jti,
        session.tokenHash,
        session.expiresAt,
        session.userAgent,
        session.clientIpHash,
      ],
    );
  }

  /** What the credential gate needs to know about a cookie session; null when no such session exists. */
  state(jti: string): Promise<SessionState | null> {
    return queryOne<SessionState>(
      this.db,
      `SELECT s.user_id, s.revoked_at IS NOT NULL AS revoked, s.expires_at < clock_timestamp() AS expired,
              u.status AS user_status, u.role AS user_role
         FROM user_session s JOIN app_user u ON u.id = s.user_id WHERE s.jti = $1`,
      [jti],
    );
  }

  async touch(jti: string): Promise<void> {
    await queryRows(this.db, `UPDATE user_session SET last_seen_at = clock_timestamp() WHERE jti = $1`, [
      jti,
    ]);
  }

  async revoke(jti: string): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      `UPDATE user_session SET revoked_at = clock_timestamp() WHERE jti = $1 AND revoked_at IS NULL RETURNING id`,
      [jti],
    );
    return rows.length === 1;
  }

  async revokeAllForUser(userId: string): Promise<number> {
    const rows = await queryRows(
      this.db,
      `UPDATE user_session SET revoked_at = clock_timestamp() WHERE user_id = $1 AND revoked_at IS NULL RETURNING id`,
      [userId],
    );
    return rows.length;
  }

  /** Revokes every live session of the user but `keptJti` (the one that asked); how many it revoked. */
  async revokeOthersForUser(userId: string, keptJti: string): Promise<number> {
    const rows = await queryRows(
      this.db,
      `UPDATE user_session SET revoked_at = clock_timestamp()
        WHERE user_id = $1 AND jti <> $2 AND revoked_at IS NULL RETURNING id`,
      [userId, keptJti],
    );
    return rows.length;
  }
}
