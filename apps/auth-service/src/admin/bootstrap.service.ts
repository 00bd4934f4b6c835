import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AuditRepository, UserRepository } from '@svc/persistence';
import { writeProcessLine } from '@svc/platform';
import { AUTH_CONTEXT, AuthContext } from '../auth-context';

/** A generated administrator password: 18 random bytes, 24 URL-safe characters. */
export function generateAdminPassword(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * First-start administrator: when SVC_BOOTSTRAP_ADMIN_EMAIL is set and no active administrator
 * exists, creates one (password from SVC_BOOTSTRAP_ADMIN_PASSWORD, or generated and printed once to
 * standard error). Idempotent: an existing e-mail is left as it is.
 */
@Injectable()
export class BootstrapService {
  constructor(
    @Inject(AUTH_CONTEXT) private readonly ctx: AuthContext,
    private readonly users: UserRepository,
    private readonly audit: AuditRepository,
  ) {}

  async ensureAdmin(): Promise<'created' | 'exists' | 'skipped'> {
    const email = this.ctx.infra.config.bootstrapAdminEmail;
    if (email === null) return 'skipped';
    if ((await this.users.countAdmins()) > 0 || (await this.users.findByEmail(email)) !== null)
      return 'exists';
    const given = this.ctx.infra.config.bootstrapAdminPassword;
    const password = given ?? generateAdminPassword();
    const username = email.split('@')[0]?.replace(/[^A-Za-z0-9_.-]/g, '') || 'admin';
    const admin = await this.users.create({
      email,
      username: username.length >= 3 ? username : 'admin',
      displayName: 'Administrator',
      passwordHash: await this.ctx.passwords.hash(password),
      role: 'admin',
      status: 'active',
      intendedUse: 'bootstrap administrator',
    });
    await this.audit.record(null, 'signup', admin.id, { bootstrap: true, email });
    // A generated password is shown once, on standard error only (kept out of the log pipeline).
    if (given === null)
      writeProcessLine(
        'auth-service',
        'warn',
        `bootstrap administrator ${email} created with password: ${password}`,
        this.ctx.infra.config.logFormat,
      );
    this.ctx.infra.logger.info('bootstrap administrator created', { email });
    return 'created';
  }
}
