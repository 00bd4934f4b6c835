import type { DataSource } from '@svc/persistence';
import { ensureFirstRunAdmin, FIRST_RUN_ADMIN, firstRunAdminNotice } from './first-run-admin';

describe('ensureFirstRunAdmin', () => {
  // Any use of the database fails the test: these cases must decide before touching it.
  const untouchable = new Proxy({} as DataSource, {
    get: (_target, name) => {
      throw new Error(`the database was used (${String(name)})`);
    },
  });
  const passwords = { hash: () => Promise.reject(new Error('nothing is hashed')) };

  it.each([
    [
      'SVC_BOOTSTRAP_ADMIN_EMAIL alone',
      { bootstrapAdminEmail: 'boss@example.org', bootstrapAdminPassword: null },
    ],
    [
      'both bootstrap settings',
      { bootstrapAdminEmail: 'boss@example.org', bootstrapAdminPassword: 'p'.repeat(12) },
    ],
  ])(
    'leaves the administrator to the bootstrap of auth-service when it is configured (%s)',
    async (_name, config) => {
      await expect(ensureFirstRunAdmin({ db: untouchable, config, passwords })).resolves.toEqual({
        outcome: 'configured',
      });
    },
  );
});

describe('firstRunAdminNotice', () => {
  const url = 'http://127.0.0.1:8000';

  it('shows the sign-in name, the username, the generated password once, and how to replace it', () => {
    const text = firstRunAdminNotice({
      admin: { ...FIRST_RUN_ADMIN, username: 'admin', password: 'Pv7-generated-secret' },
      url,
    });
    expect(text.match(/Pv7-generated-secret/g)).toHaveLength(1);
    expect(text).toContain('admin@localhost');
    expect(text).toMatch(/username\s+admin\b/);
    expect(text).toContain(`${url}/#/login`);
    expect(text).toContain('POST /v1/auth/api-keys');
    expect(text).toContain('shown only this once');
  });

  it('tells how to replace the password once signed in: the Password page or POST /v1/auth/password', () => {
    const text = firstRunAdminNotice({
      admin: { ...FIRST_RUN_ADMIN, username: 'admin', password: 'Pv7-generated-secret' },
      url,
    });
    const ownPassword = text.slice(text.indexOf('own password'));
    expect(ownPassword).toContain(`${url}/#/password`);
    expect(ownPassword).toContain('POST /v1/auth/password with {"current_password":…,"new_password":…}');
    expect(ownPassword).toContain('10 characters or more');
    expect(text).not.toMatch(/no route changes a password/);
  });

  it('does not repeat a password that came from SVC_BOOTSTRAP_ADMIN_PASSWORD', () => {
    const text = firstRunAdminNotice({
      admin: { ...FIRST_RUN_ADMIN, username: 'admin', password: null },
      url,
    });
    expect(text).toContain('SVC_BOOTSTRAP_ADMIN_PASSWORD');
    expect(text).not.toContain('shown only this once');
  });
});
