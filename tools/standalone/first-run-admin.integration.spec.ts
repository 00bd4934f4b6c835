import { createDataSource, DataSource } from '@svc/persistence';
import { PasswordHasher } from '@svc/platform';
import { createSuiteWorld, SuiteWorld } from '@svc/testing';
import { ensureFirstRunAdmin, FIRST_RUN_ADMIN } from './first-run-admin';

const NOT_CONFIGURED = { bootstrapAdminEmail: null, bootstrapAdminPassword: null };

interface UserRow {
  id: string;
  email: string;
  username: string;
  role: string;
  status: string;
  password_hash: string;
}

describe('the first-run administrator of the standalone mode (real database)', () => {
  let world: SuiteWorld;
  let db: DataSource;
  const passwords = new PasswordHasher();

  beforeAll(async () => {
    world = await createSuiteWorld('first_run_admin');
    db = createDataSource({ url: world.env['SVC_DB_URL'] ?? '', poolSize: 1 });
    await db.initialize();
  });

  afterAll(async () => {
    await db?.destroy();
    await world?.dispose();
  });

  const admins = (): Promise<UserRow[]> =>
    db.query<UserRow[]>(`SELECT * FROM app_user WHERE role = 'admin' ORDER BY created_at`);

  it('creates an active administrator with a generated password when none exists, beside a pending sign-up named admin', async () => {
    // Anyone may sign up while no administrator exists, also under the username the first run prefers.
    await db.query(
      `INSERT INTO app_user (email, username, display_name, password_hash, role, status)
       VALUES ('early@example.org', 'admin', 'Early', NULL, 'researcher', 'pending')`,
    );
    const result = await ensureFirstRunAdmin({ db, config: NOT_CONFIGURED, passwords });
    expect(result.outcome).toBe('created');
    if (result.outcome !== 'created') return;
    const { admin } = result;
    expect(admin.email).toBe(FIRST_RUN_ADMIN.email);
    expect(admin.username).toMatch(/^admin-[0-9a-f]{4}$/);
    expect(admin.password).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const [row, ...others] = await admins();
    expect(others).toEqual([]);
    expect(row).toMatchObject({ email: 'admin@localhost', username: admin.username, status: 'active' });
    expect(await passwords.verify(row?.password_hash ?? null, admin.password ?? '')).toBe(true);
    const audit = await db.query<{ actor_user_id: string | null; payload: Record<string, unknown> }[]>(
      `SELECT actor_user_id, payload FROM audit_log WHERE action = 'signup' AND target = $1`,
      [row?.id],
    );
    expect(audit).toEqual([
      { actor_user_id: null, payload: { via: 'standalone', bootstrap: true, role: 'admin' } },
    ]);
  });

  it('does nothing on a later start: an active administrator exists', async () => {
    await expect(ensureFirstRunAdmin({ db, config: NOT_CONFIGURED, passwords })).resolves.toEqual({
      outcome: 'admin_exists',
    });
    expect(await admins()).toHaveLength(1);
  });

  it('creates no second account when its address exists but is no longer an active administrator', async () => {
    await db.query(`UPDATE app_user SET status = 'deactivated' WHERE lower(email) = 'admin@localhost'`);
    await expect(ensureFirstRunAdmin({ db, config: NOT_CONFIGURED, passwords })).resolves.toEqual({
      outcome: 'address_taken',
    });
    expect(await admins()).toHaveLength(1);
  });
});

describe('the first-run administrator with SVC_BOOTSTRAP_ADMIN_PASSWORD alone (real database)', () => {
  let world: SuiteWorld;
  let db: DataSource;
  const passwords = new PasswordHasher();

  beforeAll(async () => {
    world = await createSuiteWorld('first_run_admin_password');
    db = createDataSource({ url: world.env['SVC_DB_URL'] ?? '', poolSize: 1 });
    await db.initialize();
  });

  afterAll(async () => {
    await db?.destroy();
    await world?.dispose();
  });

  it('takes that password, and does not hand it back for printing', async () => {
    const given = 'a-password-from-the-environment';
    const result = await ensureFirstRunAdmin({
      db,
      config: { bootstrapAdminEmail: null, bootstrapAdminPassword: given },
      passwords,
    });
    expect(result).toEqual({
      outcome: 'created',
      admin: { email: 'admin@localhost', username: 'admin', password: null },
    });
    const [row] = await db.query<UserRow[]>(`SELECT * FROM app_user WHERE email = 'admin@localhost'`);
    expect(await passwords.verify(row?.password_hash ?? null, given)).toBe(true);
  });
});
