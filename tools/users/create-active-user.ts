import { Role, UserView } from '@svc/contracts';
import { AuditRepository, DataSource, UserRepository } from '@svc/persistence';

export interface ActiveAccount {
  email: string;
  username: string;
  displayName: string;
  role: Role;
}

/**
 * An active account that skips sign-up and approval (the user tool, the standalone first run): the
 * user row and its `signup` audit entry, in one transaction.
 */
export function createActiveUser(
  db: DataSource,
  account: ActiveAccount,
  passwordHash: string,
  auditPayload: Record<string, unknown>,
): Promise<UserView> {
  return db.transaction(async (manager) => {
    const user = await new UserRepository(manager).create({
      ...account,
      passwordHash,
      status: 'active',
      intendedUse: null,
    });
    await new AuditRepository(manager).record(null, 'signup', user.id, auditPayload);
    return user;
  });
}
