import '@fastify/cookie';
import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiKeyLoginRequest,
  ApiKeyView,
  AUTH_RPC,
  ConsumeTokenQuery,
  CreateApiKeyRequest,
  DomainError,
  EmailRequest,
  LoginRequest,
  PasswordResetConsumeRequest,
  SESSION_COOKIE,
  SessionGrant,
  SignupRequest,
  UserView,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, RateLimit, Roles, ValidBody, ValidQuery } from '@svc/platform';
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

  @Post('signup')
  @HttpCode(201)
  @Roles('guest')
  signup(@ValidBody() body: SignupRequest, @CurrentPrincipal() who: Principal, @Req() req: FastifyRequest) {
    return this.rpc.call(AUTH_RPC.signup, body, actorOf(who, req.headers['user-agent']));
  }

  @Post('login')
  @HttpCode(200)
  @Roles('guest')
  async login(
    @ValidBody() body: LoginRequest,
    @CurrentPrincipal() who: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionGrant['user']> {
    const grant = await this.rpc.call<SessionGrant>(
      AUTH_RPC.login,
      body,
      actorOf(who, req.headers['user-agent']),
    );
    setSessionCookie(reply, grant);
    return grant.user;
  }

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

  @Get('me')
  @Roles('guest')
  me(@CurrentPrincipal() who: Principal, @Req() req: FastifyRequest): Promise<UserView> {
    if (who.userId === null) throw new DomainError('unauthorized', 'not signed in');
    return this.rpc.call(AUTH_RPC.me, { jti: who.sessionJti }, actorOf(who, req.headers['user-agent']));
  }

  @Post('api-keys')
  @HttpCode(201)
  @Roles('researcher')
  @RateLimit('api_key_mint')
  createKey(
    @ValidBody() body: CreateApiKeyRequest,
    @CurrentPrincipal() who: Principal,
    @Req() req: FastifyRequest,
  ) {
    return this.rpc.call<ApiKeyView & { key: string }>(
      AUTH_RPC.createApiKey,
      body,
      actorOf(who, req.headers['user-agent']),
    );
  }

  @Get('api-keys')
  @Roles('admin')
  listKeys(@CurrentPrincipal() who: Principal): Promise<ApiKeyView[]> {
    return this.rpc.call(AUTH_RPC.listApiKeys, {}, actorOf(who, undefined));
  }

  @Delete('api-keys/:id')
  @Roles('admin')
  async revokeKey(@Param('id') id: string, @CurrentPrincipal() who: Principal): Promise<ApiKeyView> {
    const view = await this.rpc.call<ApiKeyView>(
      AUTH_RPC.revokeApiKey,
      { id: checkUuid(id, 'API key') },
      actorOf(who, undefined),
    );
    this.auth.gate.invalidate();
    return view;
  }

  @Post('api-key-login')
  @HttpCode(200)
  @Roles('guest')
  @RateLimit('api_key_login')
  keyLogin(@ValidBody() body: ApiKeyLoginRequest, @CurrentPrincipal() who: Principal) {
    return this.rpc.call(AUTH_RPC.apiKeyLogin, body, actorOf(who, undefined));
  }

  @Post('admin/revoke-sessions/:user_id')
  @HttpCode(200)
  @Roles('admin')
  async revokeSessions(@Param('user_id') userId: string, @CurrentPrincipal() who: Principal) {
    const result = await this.rpc.call(
      AUTH_RPC.revokeSessions,
      { user_id: checkUuid(userId, 'User') },
      actorOf(who, undefined),
    );
    this.auth.gate.invalidate();
    return result;
  }

  @Post('magic-link/request')
  @EmailFlow()
  @HttpCode(202)
  @Roles('guest')
  @RateLimit('email_request')
  magicLinkRequest(@ValidBody() body: EmailRequest, @CurrentPrincipal() who: Principal) {
    return this.rpc.call(AUTH_RPC.magicLinkRequest, body, actorOf(who, undefined));
  }

  @Get('magic-link/consume')
  @EmailFlow()
  @Roles('guest')
  async magicLinkConsume(
    @ValidQuery() query: ConsumeTokenQuery,
    @CurrentPrincipal() who: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionGrant['user']> {
    const grant = await this.rpc.call<SessionGrant>(
      AUTH_RPC.magicLinkConsume,
      { token: query.token },
      actorOf(who, req.headers['user-agent']),
    );
    setSessionCookie(reply, grant);
    return grant.user;
  }

  @Post('password-reset/request')
  @EmailFlow()
  @HttpCode(202)
  @Roles('guest')
  @RateLimit('email_request')
  passwordResetRequest(@ValidBody() body: EmailRequest, @CurrentPrincipal() who: Principal) {
    return this.rpc.call(AUTH_RPC.passwordResetRequest, body, actorOf(who, undefined));
  }

  @Post('password-reset/consume')
  @EmailFlow()
  @HttpCode(200)
  @Roles('guest')
  async passwordResetConsume(
    @ValidBody() body: PasswordResetConsumeRequest,
    @CurrentPrincipal() who: Principal,
  ) {
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
