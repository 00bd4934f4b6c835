import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  LoginRequest,
  RpcActor,
  SESSION_LIFETIME_SECONDS,
  SessionGrant,
  SignupRequest,
  UserView,
} from '@svc/contracts';
import { sha256Hex } from '@svc/domain';
import { AuditRepository, SessionRepository, UserRepository } from '@svc/persistence';
import { AUTH_CONTEXT, AuthContext } from '../auth-context';
import { LoginThrottle } from './login-throttle';

/** Sign-up, sign-in with a password, sessions. */
@Injectable()
export class AccountsService {
  private standInHash: Promise<string> | null = null;

  constructor(
    @Inject(AUTH_CONTEXT) private readonly ctx: AuthContext,
    private readonly throttle: LoginThrottle,
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly audit: AuditRepository,
  ) {}

  async signup(
    body: SignupRequest,
    actor: RpcActor,
  ): Promise<Pick<UserView, 'id' | 'email' | 'username' | 'status'>> {
    // Each accepted sign-up costs a password hash and leaves a pending account: a few an hour per address.
    const reservation = await this.throttle.reserveSignup(actor.ipHash);
    let user: UserView;
    try {
      user = await this.createPending(body, actor);
    } catch (error) {
      await reservation.giveBack();
      throw error;
    }
    await this.audit.record(user.id, 'signup', user.id, { email: user.email });
    return { id: user.id, email: user.email, username: user.username, status: user.status };
  }

  /** A refused sign-up (the address or name is taken) counts as a failure: it tells who is registered. */
  private async createPending(body: SignupRequest, actor: RpcActor): Promise<UserView> {
    const attempt = await this.throttle.admit({ flow: 'signup', account: body.email, ipHash: actor.ipHash });
    const user = await this.users.create({
      email: body.email,
      username: body.username,
      displayName: body.display_name,
      passwordHash: await this.ctx.passwords.hash(body.password),
      role: 'researcher',
      status: 'pending',
      intendedUse: body.intended_use,
    });
    await attempt.succeeded();
    return user;
  }

  async login(body: LoginRequest, actor: RpcActor): Promise<SessionGrant> {
    const attempt = await this.throttle.admit({ flow: 'login', account: body.email, ipHash: actor.ipHash });
    const found = await this.users.findCredentialsByEmail(body.email);
    // Without a stored hash, a stand-in is verified instead: an unknown address costs the same
    // argon2 work as a registered one, so the answer's timing does not tell them apart.
    const stored = found?.password_hash ?? null;
    const matches = await this.ctx.passwords.verify(stored ?? (await this.standIn()), body.password);
    const valid = found !== null && stored !== null && matches;
    if (found === null || !valid) {
      await attempt.failed();
      await this.audit.record(found?.id ?? null, 'login_fail', found?.id ?? null, {
        reason: 'invalid_credentials',
        ip_hash: actor.ipHash,
      });
      throw new DomainError('unauthorized', 'invalid e-mail or password');
    }
    await attempt.succeeded();
    if (found.status !== 'active') {
      const code = found.status === 'pending' ? 'account_pending_approval' : 'account_deactivated';
      await this.audit.record(found.id, 'login_fail', found.id, { reason: code });
      throw new DomainError('forbidden', code, { code });
    }
    const grant = await this.openSession(found, actor);
    await this.audit.record(found.id, 'login_ok', found.id, { ip_hash: actor.ipHash });
    return grant;
  }

  /** A hash of a random secret, with the same parameters as real ones; nothing ever matches it. */
  private standIn(): Promise<string> {
    this.standInHash ??= this.ctx.passwords.hash(randomBytes(32).toString('hex'));
    return this.standInHash;
  }

  /** Creates the user_session row and signs its cookie token. */
  async openSession(user: UserView, actor: RpcActor): Promise<SessionGrant> {
    const jti = randomUUID();
    const token = this.ctx.jwt.sign(
      { sub: user.id, jti, role: user.role, status: user.status },
      SESSION_LIFETIME_SECONDS,
    );
    await this.sessions.create({
      userId: user.id,
      jti,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(Date.now() + SESSION_LIFETIME_SECONDS * 1000),
      userAgent: actor.userAgent,
      clientIpHash: actor.ipHash,
    });
    await this.users.recordLogin(user.id);
    return {
      token,
      max_age_seconds: SESSION_LIFETIME_SECONDS,
      user: {
        id: user.id,
        email: user.email,
        username: user.username,
        display_name: user.display_name,
        role: user.role,
        status: user.status,
      },
    };
  }

  async logout(body: { jti: string | null }, actor: RpcActor): Promise<{ revoked: boolean }> {
    if (body.jti === null) return { revoked: false };
    const revoked = await this.sessions.revoke(body.jti);
    if (revoked) await this.audit.record(actor.userId, 'logout', actor.userId);
    return { revoked };
  }

  /** The profile behind a session; 401 when the session is revoked, expired or unknown. */
  async me(body: { jti: string | null }, actor: RpcActor): Promise<UserView> {
    if (actor.userId === null) throw new DomainError('unauthorized', 'not signed in');
    if (body.jti !== null) {
      const state = await this.sessions.state(body.jti);
      if (state === null || state.revoked || state.expired)
        throw new DomainError('unauthorized', 'session revoked or expired');
      await this.sessions.touch(body.jti);
    }
    const user = await this.users.findById(actor.userId);
    if (user === null) throw new DomainError('unauthorized', 'account no longer exists');
    return user;
  }
}
