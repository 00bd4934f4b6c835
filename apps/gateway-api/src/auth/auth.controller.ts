import '@fastify/cookie';
import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiKeyLoginRequest,
  ApiKeyTokenView,
  ApiKeyView,
  AUTH_RPC,
  ChangePasswordRequest,
  ConsumeTokenQuery,
  CreateApiKeyRequest,
  CreatedApiKeyView,
  DomainError,
  EmailRequest,
  EmailRequestAcceptedView,
  LoginRequest,
  PasswordChangedView,
  PasswordResetConsumeRequest,
  PasswordResetView,
  SESSION_COOKIE,
  SessionGrant,
  SessionsRevokedView,
  SessionUserView,
  SignupRequest,
  SignupView,
  UserView,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, RateLimit, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';
import { actorOf, AuthRpcClient } from './auth-rpc.client';
import { EmailFlow, GATEWAY_AUTH, GatewayAuth } from './guards';

export const AUTH_RPC_CLIENT = Symbol('AUTH_RPC_CLIENT');

function setSessionCookie(reply: FastifyReply, grant: SessionGrant): void {
  void reply.setCookie(SESSION_COOKIE, grant.token, {
    httpOnly: true,
    secure: true,
    sameSite: 'strict',
    maxAge: grant.max_age_seconds,
    path: '/',
  });
}

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    @Inject(AUTH_RPC_CLIENT) private readonly rpc: AuthRpcClient,
    @Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth,
  ) {}

  @ApiDoc({
    summary: "Sign up; the account waits for an administrator's approval",
    ok: SignupView,
    problems: [409, 503],
  })
  @Post('signup')
  @HttpCode(201)
  @Roles('guest')
  signup(
    @ValidBody() body: SignupRequest,
    @CurrentPrincipal() who: Principal,
    @Req() req: FastifyRequest,
  ): Promise<SignupView> {
    return this.rpc.call(AUTH_RPC.signup, body, actorOf(who, req.headers['user-agent']));
  }

  @ApiDoc({
    summary: 'Sign in with e-mail and password; sets the session cookie',
    ok: SessionUserView,
    problems: [403, 503],
  })
  @Post('login')
  @HttpCode(200)
  @Roles('guest')
  async login(
    @ValidBody() body: LoginRequest,
    @CurrentPrincipal() who: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionUserView> {
    const grant = await this.rpc.call(AUTH_RPC.login, body, actorOf(who, req.headers['user-agent']));
    setSessionCookie(reply, grant);
    return grant.user;
  }

  @ApiDoc({ summary: 'Sign out: revoke the session and clear its cookie', problems: [503] })
  @Post('logout')
  @HttpCode(204)
  @Roles('guest')
  async logout(
    @CurrentPrincipal() who: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    if (who.sessionJti !== null) {
      await this.rpc.call(AUTH_RPC.logout, { jti: who.sessionJti }, actorOf(who, req.headers['user-agent']));
      this.auth.gate.invalidate();
    }
    // The clearing cookie carries the same attributes as the session cookie it replaces.
    void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, secure: true, sameSite: 'strict' });
  }

  @ApiDoc({ summary: 'The signed-in account', ok: UserView, problems: [503] })
  @Get('me')
  @Roles('guest')
  me(@CurrentPrincipal() who: Principal, @Req() req: FastifyRequest): Promise<UserView> {
    if (who.userId === null) throw new DomainError('unauthorized', 'not signed in');
    return this.rpc.call(AUTH_RPC.me, { jti: who.sessionJti }, actorOf(who, req.headers['user-agent']));
  }

  @ApiDoc({
    summary: 'Change your own password; revokes your other sessions and keeps this one',
    description:
      'Needs a signed-in session and the current password; API keys and the bearer tokens exchanged for them are refused (403). A wrong current password is 403; failures are throttled per account like sign-ins (429 with Retry-After).',
    ok: PasswordChangedView,
    problems: [403, 409, 503],
  })
  @Post('password')
  @HttpCode(200)
  @Roles('researcher')
  async changePassword(
    @ValidBody() body: ChangePasswordRequest,
    @CurrentPrincipal() who: Principal,
    @Req() req: FastifyRequest,
  ): Promise<PasswordChangedView> {
    const result = await this.rpc.call(
      AUTH_RPC.changePassword,
      { ...body, jti: who.sessionJti },
      actorOf(who, req.headers['user-agent']),
    );
    this.auth.gate.invalidate();
    return result;
  }

  @ApiDoc({
    summary: 'Mint an API key; the raw key is shown this once',
    ok: CreatedApiKeyView,
    problems: [404, 409, 503],
  })
  @Post('api-keys')
  @HttpCode(201)
  @Roles('researcher')
  @RateLimit('api_key_mint')
  createKey(
    @ValidBody() body: CreateApiKeyRequest,
    @CurrentPrincipal() who: Principal,
    @Req() req: FastifyRequest,
  ): Promise<CreatedApiKeyView> {
    return this.rpc.call(AUTH_RPC.createApiKey, body, actorOf(who, req.headers['user-agent']));
  }

  @ApiDoc({ summary: 'Every API key, newest first', ok: [ApiKeyView], problems: [503] })
  @Get('api-keys')
  @Roles('admin')
  listKeys(@CurrentPrincipal() who: Principal): Promise<ApiKeyView[]> {
    return this.rpc.call(AUTH_RPC.listApiKeys, {}, actorOf(who, undefined));
  }

  @ApiDoc({ summary: 'Revoke an API key', ok: ApiKeyView, problems: [503] })
  @Delete('api-keys/:id')
  @Roles('admin')
  async revokeKey(@Param('id') id: string, @CurrentPrincipal() who: Principal): Promise<ApiKeyView> {
    const view = await this.rpc.call(
      AUTH_RPC.revokeApiKey,
      { id: checkUuid(id, 'API key') },
      actorOf(who, undefined),
    );
    this.auth.gate.invalidate();
    return view;
  }

  @ApiDoc({ summary: 'Exchange an API key for a bearer token', ok: ApiKeyTokenView, problems: [503] })
  @Post('api-key-login')
  @HttpCode(200)
  @Roles('guest')
  @RateLimit('api_key_login')
  keyLogin(
    @ValidBody() body: ApiKeyLoginRequest,
    @CurrentPrincipal() who: Principal,
  ): Promise<ApiKeyTokenView> {
    return this.rpc.call(AUTH_RPC.apiKeyLogin, body, actorOf(who, undefined));
  }

  @ApiDoc({ summary: 'Revoke every session of an account', ok: SessionsRevokedView, problems: [503] })
  @Post('admin/revoke-sessions/:user_id')
  @HttpCode(200)
  @Roles('admin')
  async revokeSessions(
    @Param('user_id') userId: string,
    @CurrentPrincipal() who: Principal,
  ): Promise<SessionsRevokedView> {
    const result = await this.rpc.call(
      AUTH_RPC.revokeSessions,
      { user_id: checkUuid(userId, 'User') },
      actorOf(who, undefined),
    );
    this.auth.gate.invalidate();
    return result;
  }

  @ApiDoc({
    summary: 'E-mail a sign-in link (the answer does not tell whether the address has an account)',
    description: '404 when the e-mail flows are disabled (no SMTP configured).',
    ok: EmailRequestAcceptedView,
    problems: [404, 503],
  })
  @Post('magic-link/request')
  @EmailFlow()
  @HttpCode(202)
  @Roles('guest')
  @RateLimit('email_request')
  magicLinkRequest(
    @ValidBody() body: EmailRequest,
    @CurrentPrincipal() who: Principal,
  ): Promise<EmailRequestAcceptedView> {
    return this.rpc.call(AUTH_RPC.magicLinkRequest, body, actorOf(who, undefined));
  }

  @ApiDoc({
    summary: 'Sign in with an e-mailed link; sets the session cookie',
    description: '404 when the e-mail flows are disabled (no SMTP configured).',
    ok: SessionUserView,
    problems: [403, 404, 503],
  })
  @Get('magic-link/consume')
  @EmailFlow()
  @Roles('guest')
  async magicLinkConsume(
    @ValidQuery() query: ConsumeTokenQuery,
    @CurrentPrincipal() who: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionUserView> {
    const grant = await this.rpc.call(
      AUTH_RPC.magicLinkConsume,
      { token: query.token },
      actorOf(who, req.headers['user-agent']),
    );
    setSessionCookie(reply, grant);
    return grant.user;
  }

  @ApiDoc({
    summary: 'E-mail a password-reset code (the answer does not tell whether the address has an account)',
    description: '404 when the e-mail flows are disabled (no SMTP configured).',
    ok: EmailRequestAcceptedView,
    problems: [404, 503],
  })
  @Post('password-reset/request')
  @EmailFlow()
  @HttpCode(202)
  @Roles('guest')
  @RateLimit('email_request')
  passwordResetRequest(
    @ValidBody() body: EmailRequest,
    @CurrentPrincipal() who: Principal,
  ): Promise<EmailRequestAcceptedView> {
    return this.rpc.call(AUTH_RPC.passwordResetRequest, body, actorOf(who, undefined));
  }

  @ApiDoc({
    summary: 'Choose a new password with an e-mailed code; revokes every session of the account',
    description: '404 when the e-mail flows are disabled (no SMTP configured).',
    ok: PasswordResetView,
    problems: [404, 503],
  })
  @Post('password-reset/consume')
  @EmailFlow()
  @HttpCode(200)
  @Roles('guest')
  async passwordResetConsume(
    @ValidBody() body: PasswordResetConsumeRequest,
    @CurrentPrincipal() who: Principal,
  ): Promise<PasswordResetView> {
    const result = await this.rpc.call(AUTH_RPC.passwordResetConsume, body, actorOf(who, undefined));
    this.auth.gate.invalidate();
    return result;
  }
}

export function checkUuid(id: string, entity: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id))
    throw new DomainError('not_found', `${entity} not found`);
  return id;
}
