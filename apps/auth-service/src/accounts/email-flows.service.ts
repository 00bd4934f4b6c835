import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  EmailRequest,
  PasswordResetConsumeRequest,
  RpcActor,
  SessionGrant,
} from '@svc/contracts';
import { mintLinkToken, sha256Hex } from '@svc/domain';
import { AuditRepository, AuthTokenRepository, SessionRepository, UserRepository } from '@svc/persistence';
import { Mailer, OutgoingMail } from '@svc/platform';
import { AUTH_CONTEXT, AuthContext } from '../auth-context';
import { AccountsService } from './accounts.service';
import { LoginThrottle } from './login-throttle';

const MAGIC_LINK_TTL_SECONDS = 15 * 60;
const PASSWORD_RESET_TTL_SECONDS = 60 * 60;

/**
 * Magic-link sign-in and password reset by e-mail, available only when SMTP is configured. Requests
 * always answer the same way whether or not the address has an account, so they reveal nothing.
 */
@Injectable()
export class EmailFlowsService {
  constructor(
    @Inject(AUTH_CONTEXT) private readonly ctx: AuthContext,
    private readonly accounts: AccountsService,
    private readonly throttle: LoginThrottle,
    private readonly users: UserRepository,
    private readonly tokens: AuthTokenRepository,
    private readonly sessions: SessionRepository,
    private readonly audit: AuditRepository,
  ) {}

  async requestMagicLink(body: EmailRequest, actor: RpcActor): Promise<{ accepted: true }> {
    const mailer = this.requireMailer();
    // Every request counts: each one may put a mail in someone's inbox.
    await this.throttle.admit({ flow: 'magic_link_request', account: body.email, ipHash: actor.ipHash });
    const user = await this.users.findByEmail(body.email);
    if (user !== null && user.status === 'active') {
      const token = mintLinkToken();
      await this.tokens.create({
        userId: user.id,
        kind: 'magic_link',
        tokenHash: token.hash,
        ttlSeconds: MAGIC_LINK_TTL_SECONDS,
      });
      const link = `${this.ctx.infra.config.publicUrl}/v1/auth/magic-link/consume?token=${token.raw}`;
      this.sendInBackground(mailer, {
        to: user.email,
        subject: 'Your sign-in link',
        text: `Open this link within 15 minutes to sign in:\n\n${link}\n\nIf you did not ask for it, ignore this message.\n`,
      });
    }
    return { accepted: true };
  }

  async consumeMagicLink(body: { token: string }, actor: RpcActor): Promise<SessionGrant> {
    this.requireMailer();
    const attempt = await this.throttle.admit({
      flow: 'magic_link_consume',
      account: null,
      ipHash: actor.ipHash,
    });
    const userId = await this.tokens.consume(sha256Hex(body.token), 'magic_link');
    if (userId === null) throw new DomainError('unauthorized', 'the link is invalid, used or expired');
    await attempt.succeeded();
    const user = await this.users.getById(userId);
    if (user.status !== 'active')
      throw new DomainError(
        'forbidden',
        user.status === 'pending' ? 'account_pending_approval' : 'account_deactivated',
      );
    const grant = await this.accounts.openSession(user, actor);
    await this.audit.record(user.id, 'login_ok', user.id, { method: 'magic_link' });
    return grant;
  }

  async requestPasswordReset(body: EmailRequest, actor: RpcActor): Promise<{ accepted: true }> {
    const mailer = this.requireMailer();
    await this.throttle.admit({ flow: 'password_reset_request', account: body.email, ipHash: actor.ipHash });
    const user = await this.users.findByEmail(body.email);
    if (user !== null && user.status !== 'deactivated') {
      const token = mintLinkToken();
      await this.tokens.create({
        userId: user.id,
        kind: 'password_reset',
        tokenHash: token.hash,
        ttlSeconds: PASSWORD_RESET_TTL_SECONDS,
      });
      this.sendInBackground(mailer, {
        to: user.email,
        subject: 'Reset your password',
        text: `Use this code within one hour to choose a new password (POST /v1/auth/password-reset/consume):\n\n${token.raw}\n\nIf you did not ask for it, ignore this message.\n`,
      });
    }
    return { accepted: true };
  }

  async consumePasswordReset(
    body: PasswordResetConsumeRequest,
    actor: RpcActor,
  ): Promise<{ reset: true; sessions_revoked: number }> {
    this.requireMailer();
    const attempt = await this.throttle.admit({
      flow: 'password_reset_consume',
      account: null,
      ipHash: actor.ipHash,
    });
    const userId = await this.tokens.consume(sha256Hex(body.token), 'password_reset');
    if (userId === null) throw new DomainError('unauthorized', 'the reset code is invalid, used or expired');
    await attempt.succeeded();
    await this.users.update(userId, { passwordHash: await this.ctx.passwords.hash(body.new_password) });
    const revoked = await this.sessions.revokeAllForUser(userId);
    await this.audit.record(userId, 'password_reset', userId, { sessions_revoked: revoked });
    return { reset: true, sessions_revoked: revoked };
  }

  /**
   * Mail goes out after the reply, so the answer takes the same time whether or not the address has an
   * account, and an SMTP failure cannot reveal it either; failures are logged.
   */
  private sendInBackground(mailer: Mailer, mail: OutgoingMail): void {
    mailer.send(mail).catch((error: unknown) => {
      this.ctx.infra.logger.error('mail not sent', {
        to_domain: mail.to.split('@')[1] ?? null,
        error: (error as Error).message,
      });
    });
  }

  private requireMailer(): Mailer {
    if (this.ctx.mailer === null)
      throw new DomainError('not_found', 'e-mail flows are disabled: SMTP is not configured');
    return this.ctx.mailer;
  }
}
