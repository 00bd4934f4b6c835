import { randomBytes } from 'node:crypto';
import { DomainError, PASSWORD_MIN_LENGTH } from '@svc/contracts';
import { DataSource, UserRepository } from '@svc/persistence';
import type { AppConfig, PasswordHasher } from '@svc/platform';
import { generateAdminPassword } from '../../apps/auth-service/src/admin/bootstrap.service';
import { createActiveUser } from '../users/create-active-user';

/**
 * The sign-in name of the administrator a new standalone data folder gets. Sign-up refuses an
 * address without a dotted domain, so nobody can register this one before the first start.
 */
export const FIRST_RUN_ADMIN = { email: 'admin@localhost', displayName: 'Administrator' } as const;
const PREFERRED_USERNAME = 'admin';

export interface FirstRunAdmin {
  email: string;
  username: string;
  /** The generated password; null when it came from SVC_BOOTSTRAP_ADMIN_PASSWORD. */
  password: string | null;
}

export type FirstRunAdminResult =
  | { outcome: 'created'; admin: FirstRunAdmin }
  /** An active administrator exists: a later start, or one added with the user tool. */
  | { outcome: 'admin_exists' }
  /** SVC_BOOTSTRAP_ADMIN_EMAIL is set: auth-service's bootstrap decides, as in the services mode. */
  | { outcome: 'configured' }
  /** No active administrator, but the first-run address exists (deactivated or demoted since). */
  | { outcome: 'address_taken' };

/**
 * A standalone start without an active administrator and without SVC_BOOTSTRAP_ADMIN_EMAIL creates
 * one, so that sign-ups can be approved on a laptop that nobody configured. Its password is generated
 * unless SVC_BOOTSTRAP_ADMIN_PASSWORD gives one.
 */
export async function ensureFirstRunAdmin(input: {
  db: DataSource;
  config: Pick<AppConfig, 'bootstrapAdminEmail' | 'bootstrapAdminPassword'>;
  passwords: Pick<PasswordHasher, 'hash'>;
}): Promise<FirstRunAdminResult> {
  const { db, config } = input;
  if (config.bootstrapAdminEmail !== null) return { outcome: 'configured' };
  const users = new UserRepository(db);
  if ((await users.countAdmins()) > 0) return { outcome: 'admin_exists' };
  if ((await users.findByEmail(FIRST_RUN_ADMIN.email)) !== null) return { outcome: 'address_taken' };
  const given = config.bootstrapAdminPassword;
  const password = given ?? generateAdminPassword();
  const passwordHash = await input.passwords.hash(password);
  // A sign-up may have taken `admin` while no administrator existed; a short suffix then stands in.
  const usernames = [PREFERRED_USERNAME, ...[1, 2, 3].map(() => `admin-${randomBytes(2).toString('hex')}`)];
  let taken: unknown;
  for (const username of usernames) {
    try {
      const user = await createActiveUser(db, { ...FIRST_RUN_ADMIN, username, role: 'admin' }, passwordHash, {
        via: 'standalone',
        bootstrap: true,
        role: 'admin',
      });
      return {
        outcome: 'created',
        admin: { email: user.email, username: user.username, password: given === null ? password : null },
      };
    } catch (error) {
      if (!(error instanceof DomainError && error.message.includes('username'))) throw error;
      taken = error;
    }
  }
  throw taken;
}

/** What the terminal shows once, after the first start: how to sign in and how to replace the password. */
export function firstRunAdminNotice(input: { admin: FirstRunAdmin; url: string }): string {
  const { admin, url } = input;
  const password =
    admin.password === null
      ? 'the one in SVC_BOOTSTRAP_ADMIN_PASSWORD'
      : `${admin.password}   (shown only this once: keep it now)`;
  return [
    '',
    'first start: an administrator account was created for this data folder',
    `  sign-in e-mail  ${admin.email}`,
    `  username        ${admin.username}`,
    `  password        ${password}`,
    `  sign in         ${url}/#/login, or POST ${url}/v1/auth/login with {"email":"${admin.email}","password":…}`,
    `  API key         signed in, the Admin page (${url}/#/admin) or POST /v1/auth/api-keys creates one;`,
    `                  then: npx svc login --url ${url} --api-key KEY`,
    `  own password    signed in, the Password page (${url}/#/password) or`,
    '                    POST /v1/auth/password with {"current_password":…,"new_password":…}',
    `                  replaces it (${PASSWORD_MIN_LENGTH} characters or more); your other sessions are signed out`,
    '',
    '',
  ].join('\n');
}
