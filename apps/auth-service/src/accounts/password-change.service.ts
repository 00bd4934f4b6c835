import { Inject, Injectable } from '@nestjs/common';
import { ChangePasswordRequest, DomainError, RpcActor } from '@svc/contracts';
import { AuditRepository, SessionRepository, UserRepository } from '@svc/persistence';
import { AUTH_CONTEXT, AuthContext } from '../auth-context';
import { LoginThrottle } from './login-throttle';

/**
 * A signed-in user replaces their own password by proving the current one; no e-mail is involved, so
 * it works without SMTP (the standalone mode's first administrator replaces its generated password
 * this way). Other sessions of the account end, as after a reset; the one that asked stays.
 */
@Injectable()
export class PasswordChangeService {
  constructor(
    @Inject(AUTH_CONTEXT) private readonly ctx: AuthContext,
    private readonly throttle: LoginThrottle,
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly audit: AuditRepository,
  ) {}

  async change(
    body: ChangePasswordRequest & { jti: string | null },
    actor: RpcActor,
  ): Promise<{ changed: true; sessions_revoked: number }> {
    if (actor.userId === null) throw new DomainError('unauthorized', 'not signed in');
    // An API key proves that its holder has the key, not that they know the password: a leaked key
    // must neither become a way to guess the password nor to take the account over by replacing it.
    if (body.jti === null)
      throw new DomainError(
        'forbidden',
        'changing the password needs a signed-in session (sign in with e-mail and password); API keys and the tokens exchanged for them cannot change it',
        { code: 'session_required' },
      );
    const session = await this.sessions.state(body.jti);
    if (session === null || session.revoked || session.expired || session.user_id !== actor.userId)
      throw new DomainError('unauthorized', 'session revoked or expired');
    const found = await this.users.findCredentialsById(actor.userId);
    if (found === null || found.status !== 'active')
      throw new DomainError('unauthorized', 'account is not active');
    const stored = found.password_hash;
    if (stored === null)
      throw new DomainError('forbidden', 'the account has no password to change; use the password reset', {
        code: 'no_password',
      });
    // Charged before the argon2 work, per account (every session of it shares the counter) and per
    // address, like a sign-in; a correct current password gives the charge back.
    const attempt = await this.throttle.admit({
      flow: 'password_change',
      account: actor.userId,
      ipHash: actor.ipHash,
    });
    if (!(await this.ctx.passwords.verify(stored, body.current_password))) {
      await attempt.failed();
      await this.audit.record(found.id, 'login_fail', found.id, {
        reason: 'wrong_current_password',
        ip_hash: actor.ipHash,
      });
      throw new DomainError('forbidden', 'the current password is wrong', { code: 'wrong_current_password' });
    }
    await attempt.succeeded();
    const next = await this.ctx.passwords.hash(body.new_password);
    if (!(await this.users.replacePasswordHash(found.id, { expected: stored, next })))
      throw new DomainError('conflict', 'the password was changed meanwhile; sign in again and retry');
    const revoked = await this.sessions.revokeOthersForUser(found.id, body.jti);
    await this.audit.record(found.id, 'password_changed', found.id, { sessions_revoked: revoked });
    return { changed: true, sessions_revoked: revoked };
  }
}
