import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import { DomainError, hasRoleAtLeast, Role } from '@svc/contracts';

export const ROLE_FLOOR_KEY = 'svc:role-floor';

export const RATE_LIMIT_KEY = 'svc:rate-limit';

/** Who is calling; set on the request by the credential gate. */
export interface Principal {
  kind: 'anonymous' | 'session' | 'bearer' | 'api_key' | 'gate_disabled';
  role: Role;
  userId: string | null;
  /** The rate limiter's key, always verified: the account (`user:<id>`) or the daily address hash. */
  rateKey: string;
  /** Daily-rotated hash of the client's address group (IPv4 address or IPv6 /64; quota key for guests). */
  addressHash: string;
  /** The cookie session's id, when the caller signed in with the session cookie. */
  sessionJti: string | null;
}

/**
 * Declares the lowest role that may call a route. Every route carries one; it is also published in
 * the OpenAPI description as `x-role-floor`.
 */
export const Roles = (floor: Role): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(ROLE_FLOOR_KEY, floor), ApiExtension('x-role-floor', floor));

/** Names the rate-limited resource a route consumes (for example `post_jobs`). */
export const RateLimit = (resource: string): MethodDecorator =>
  applyDecorators(SetMetadata(RATE_LIMIT_KEY, resource), ApiExtension('x-rate-limit', resource));

export const RATE_LIMIT_ON_ACCEPT_KEY = 'svc:rate-limit-on-accept';

/**
 * A rate limit that counts only accepted work: the route's service charges it once the request has
 * passed every check (a refused request costs nothing), instead of the guard charging every call.
 */
export const RateLimitOnAccept = (resource: string): MethodDecorator =>
  applyDecorators(SetMetadata(RATE_LIMIT_ON_ACCEPT_KEY, resource), ApiExtension('x-rate-limit', resource));

export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal | undefined => {
    return ctx.switchToHttp().getRequest<{ principal?: Principal }>().principal;
  },
);

/** Enforces the declared floor: anonymous callers below it get 401, signed-in callers 403. */
@Injectable()
export class RoleFloorGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const floor = this.reflector.getAllAndOverride<Role | undefined>(ROLE_FLOOR_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (floor === undefined) {
      throw new Error(`route ${context.getClass().name}.${context.getHandler().name} declares no role floor`);
    }
    const principal = context.switchToHttp().getRequest<{ principal?: Principal }>().principal;
    const role = principal?.role ?? 'guest';
    if (hasRoleAtLeast(role, floor)) return true;
    if (principal === undefined || principal.kind === 'anonymous') {
      throw new DomainError('unauthorized', `authentication required (role ${floor} or higher)`);
    }
    throw new DomainError('forbidden', `role ${role} is below the required role ${floor}`);
  }
}
