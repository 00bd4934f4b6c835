import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@svc/contracts';
import { JwtCodec, RATE_LIMIT_KEY } from '@svc/platform';
import { CredentialFailureLimiter } from './credential-failures';
import { CredentialGate } from './credential-gate';
import { LimitsService } from './limits.service';

export const GATEWAY_AUTH = Symbol('GATEWAY_AUTH');

export interface GatewayAuth {
  gate: CredentialGate;
  limits: LimitsService;
  failures: CredentialFailureLimiter;
  jwt: JwtCodec;
  authnRequired: boolean;
  /** The e-mail flows exist only with SMTP configured. */
  smtpEnabled: boolean;
}

/**
 * First: the credential gate sets `request.principal`. A credential that fails its check is a 401;
 * a refused API key also counts against the caller's address, and once that address has failed too
 * often, a 429.
 */
@Injectable()
export class CredentialGateGuard implements CanActivate {
  constructor(@Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    try {
      request.principal = await this.auth.gate.authenticate(request);
    } catch (error) {
      if (
        error instanceof DomainError &&
        error.code === 'unauthorized' &&
        this.auth.gate.presentsApiKey(request)
      )
        await this.auth.failures.charge(this.auth.gate.addressHash(request.ip));
      throw error;
    }
    return true;
  }
}

/**
 * Before anything else: the e-mail flows answer 404 when SMTP is not configured, before their bodies
 * are validated or any rate is charged.
 */
@Injectable()
export class EmailFlowsGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.get<boolean | undefined>(EMAIL_FLOW_KEY, context.getHandler()) !== true) return true;
    if (!this.auth.smtpEnabled)
      throw new DomainError('not_found', 'e-mail flows are disabled: SMTP is not configured');
    return true;
  }
}

export const EMAIL_FLOW_KEY = 'svc:email-flow';

/** Marks a route of the e-mail flows (magic links, password resets). */
export const EmailFlow = (): MethodDecorator => SetMetadata(EMAIL_FLOW_KEY, true);

/**
 * Second: the rate limiter, keyed on the verified principal (the account behind every credential, or
 * the address hash of an anonymous caller) and using that principal's role for the role's rates.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const resource = this.reflector.get<string | undefined>(RATE_LIMIT_KEY, context.getHandler());
    if (resource === undefined || !this.auth.authnRequired) return true;
    const principal = context.switchToHttp().getRequest<FastifyRequest>().principal;
    if (principal === undefined) throw new Error('the rate limiter ran before the credential gate');
    // Administrators are exempt from per-user limits, as they are from quotas.
    if (principal.role === 'admin') return true;
    await this.auth.limits.checkRate(resource, principal.rateKey, principal.role);
    return true;
  }
}
