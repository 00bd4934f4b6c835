import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { normalizeRole, SESSION_COOKIE } from '@svc/contracts';
import { JwtCodec, RATE_LIMIT_KEY } from '@svc/platform';
import { CredentialGate } from './credential-gate';
import { LimitsService } from './limits.service';

export const GATEWAY_AUTH = Symbol('GATEWAY_AUTH');

export interface GatewayAuth {
  gate: CredentialGate;
  limits: LimitsService;
  jwt: JwtCodec;
  authnRequired: boolean;
}

/** First: the rate limiter, keyed before any credential is checked against the database. */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const resource = this.reflector.get<string | undefined>(RATE_LIMIT_KEY, context.getHandler());
    if (resource === undefined || !this.auth.authnRequired) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const rateKey = this.auth.gate.rateKey(request);
    await this.auth.limits.checkRate(resource, rateKey, this.roleHint(request, rateKey));
    return true;
  }

  private roleHint(request: FastifyRequest, rateKey: string): ReturnType<typeof normalizeRole> | null {
    if (rateKey.startsWith('ip:')) return 'guest';
    if (!rateKey.startsWith('sub:')) return null;
    // Bearer tokens and session cookies carry the role; API keys are limited by the default rates.
    const header = request.headers.authorization ?? '';
    const cookie = (request as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies?.[
      SESSION_COOKIE
    ];
    const token = header.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : (cookie ?? null);
    const claims = token !== null ? this.auth.jwt.verify(token) : null;
    return claims !== null && claims.role !== undefined ? normalizeRole(claims.role) : null;
  }
}

/** Second: the credential gate sets `request.principal` (401 for bad credentials). */
@Injectable()
export class CredentialGateGuard implements CanActivate {
  constructor(@Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    request.principal = await this.auth.gate.authenticate(request);
    return true;
  }
}
