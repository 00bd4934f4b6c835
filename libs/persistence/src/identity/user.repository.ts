import { DomainError, notFound, Role, UserStatus, UserView } from '@svc/contracts';
import { Db, isoColumn, isUniqueViolation, queryOne, queryRows } from '../sql';

const USER_COLUMNS = [
  'id',
  'email',
  'username',
  'display_name',
  'role',
  'status',
  'intended_use',
  isoColumn('created_at'),
  isoColumn('last_login_at'),
].join(', ');

export interface NewUser {
  email: string;
  username: string;
  displayName: string;
  passwordHash: string | null;
  role: Role;
  status: UserStatus;
  intendedUse: string | null;
}

export class UserRepository {
  constructor(private readonly db: Db) {}

  async create(user: NewUser): Promise<UserView> {
    try {
      const row = await queryOne<UserView>(
        this.db,
        `INSERT INTO app_user (email, username, display_name, password_hash, role, status, intended_use)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${USER_COLUMNS}`,
        [
          user.email,
          user.username,
          user.displayName,
          user.passwordHash,
          user.role,
          user.status,
          user.intendedUse,
        ],
      );
      if (row === null) throw new Error('insert returned no row');
      return row;
    } catch (error) {
      if (isUniqueViolation(error, 'app_user_email_uidx'))
        throw new DomainError('conflict', 'that e-mail address is already registered');
      if (isUniqueViolation(error, 'app_user_username_uidx'))
        throw new DomainError('conflict', 'that username is taken');
      throw error;
    }
  }

  findById(id: string): Promise<UserView | null> {
    return queryOne<UserView>(this.db, `SELECT ${USER_COLUMNS} FROM app_user WHERE id = $1`, [id]);
  }

  async getById(id: string): Promise<UserView> {
    const user = await this.findById(id);
    if (user === null) throw notFound('User');
    return user;
  }

  /** The user and their password hash, for sign-in only. */
  findCredentialsByEmail(email: string): Promise<(UserView & { password_hash: string | null }) | null> {
    return queryOne(
      this.db,
      `SELECT ${USER_COLUMNS}, password_hash FROM app_user WHERE lower(email) = lower($1)`,
      [email],
    );
  }

  /** The user and their password hash, for checking a signed-in user's current password. */
  findCredentialsById(id: string): Promise<(UserView & { password_hash: string | null }) | null> {
    return queryOne(this.db, `SELECT ${USER_COLUMNS}, password_hash FROM app_user WHERE id = $1`, [id]);
  }

  findByEmail(email: string): Promise<UserView | null> {
    return queryOne<UserView>(
      this.db,
      `SELECT ${USER_COLUMNS} FROM app_user WHERE lower(email) = lower($1)`,
      [email],
    );
  }

  list(status?: UserStatus): Promise<UserView[]> {
    return status === undefined
      ? queryRows<UserView>(this.db, `SELECT ${USER_COLUMNS} FROM app_user ORDER BY created_at DESC`)
      : queryRows<UserView>(
          this.db,
          `SELECT ${USER_COLUMNS} FROM app_user WHERE status = $1 ORDER BY created_at DESC`,
          [status],
        );
  }

  async update(
    id: string,
    changes: { role?: Role; status?: UserStatus; passwordHash?: string },
  ): Promise<UserView> {
    const row = await queryOne<UserView>(
      this.db,
      `UPDATE app_user SET role = COALESCE($2, role), status = COALESCE($3, status), password_hash = COALESCE($4, password_hash)
        WHERE id = $1 RETURNING ${USER_COLUMNS}`,
      [id, changes.role ?? null, changes.status ?? null, changes.passwordHash ?? null],
    );
    if (row === null) throw notFound('User');
    return row;
  }

  /**
   * Replaces the password hash only if it is still the one the current password was checked against,
   * so a reset or another change in between is not overwritten; false when it was.
   */
  async replacePasswordHash(id: string, hashes: { expected: string; next: string }): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      `UPDATE app_user SET password_hash = $3 WHERE id = $1 AND password_hash = $2 RETURNING id`,
      [id, hashes.expected, hashes.next],
    );
    return rows.length === 1;
  }

  async recordLogin(id: string): Promise<void> {
    await queryRows(this.db, `UPDATE app_user SET last_login_at = clock_timestamp() WHERE id = $1`, [id]);
  }

  async delete(id: string): Promise<boolean> {
    const rows = await queryRows(this.db, `DELETE FROM app_user WHERE id = $1 RETURNING id`, [id]);
    return rows.length === 1;
  }

  async countAdmins(): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.db,
      `SELECT count(*)::int AS n FROM app_user WHERE role = 'admin' AND status = 'active'`,
    );
    return row?.n ?? 0;
  }
}
