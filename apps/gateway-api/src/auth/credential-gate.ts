import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DomainError, normalizeRole, SESSION_COOKIE } from '@svc/contracts';
import { boundRole } from '@svc/domain';
import {
  ApiKeyCandidate,
  ApiKeyRepository,
  checkApiKey,
  SessionRepository,
  SessionState,
} from '@svc/persistence';
import { AppConfig, JwtCodec, Principal, TokenClaims } from '@svc/platform';
import { DataSource } from 'typeorm';
import { TtlCache } from './ttl-cache';

/** Key and session lookups are cached this long, so a revocation takes effect within the promised 5 s. */
const LOOKUP_TTL_MS = 2000;
const TOUCH_INTERVAL_MS = 60_000;

type Credential =
  | { kind: 'api_key'; raw: string }
  | { kind: 'bearer'; token: string }
  | { kind: 'session'; token: string }
  | { kind: 'none' }
  | { kind: 'unsupported'; scheme: string };

/**
 * The credential gate: recognises `Authorization: ApiKey`, `X-Api-Key`, `Authorization: Bearer` and
 * the `svc_session` cookie. JWTs are verified locally; key and session look-ups are cached briefly.
 */
export class CredentialGate {
  private readonly keys: ApiKeyRepository;
  private readonly sessions: SessionRepository;
  private readonly keyCache = new TtlCache<ApiKeyCandidate[]>(LOOKUP_TTL_MS);
  private readonly sessionCache = new TtlCache<SessionState | null>(LOOKUP_TTL_MS);
  private readonly touched = new TtlCache<true>(TOUCH_INTERVAL_MS);

  constructor(
    private readonly config: AppConfig,
    db: DataSource,
    private readonly jwt: JwtCodec,
    private readonly addressSecret: Buffer,
  ) {
    this.keys = new ApiKeyRepository(db);
    this.sessions = new SessionRepository(db);
  }

  /** Daily-rotated, installation-wide hash of the client address (the same on every replica). */
  addressHash(address: string): string {
    const day = new Date().toISOString().slice(0, 10);
    return createHmac('sha256', this.addressSecret).update(`${day}|${address}`).digest('hex').slice(0, 16);
  }

  /** The rate limiter's key, without any database access: key prefix, verified JWT subject, or address. */
  rateKey(request: FastifyRequest): string {
    const credential = this.credentialOf(request);
    if (credential.kind === 'api_key') return `key:${credential.raw.trim().slice(0, 8)}`;
    if (credential.kind === 'bearer' || credential.kind === 'session') {
      const claims = this.jwt.verify(credential.token);
      if (claims !== null) return `sub:${claims.sub}`;
    }
    return `ip:${this.addressHash(request.ip)}`;
  }

  /** Who the caller is; 401 for a presented credential that is invalid, revoked or expired. */
  async authenticate(request: FastifyRequest): Promise<Principal> {
    const addressHash = this.addressHash(request.ip);
    if (!this.config.authnRequired) {
      return {
        kind: 'gate_disabled',
        role: 'admin',
        userId: null,
        rateKey: `ip:${addressHash}`,
        addressHash,
        sessionJti: null,
      };
    }
    const credential = this.credentialOf(request);
    switch (credential.kind) {
      case 'none':
        return {
          kind: 'anonymous',
          role: 'guest',
          userId: null,
          rateKey: `ip:${addressHash}`,
          addressHash,
          sessionJti: null,
        };
      case 'unsupported':
        throw new DomainError(
          'unauthorized',
          `unsupported authorization scheme '${credential.scheme}'; use ApiKey or Bearer`,
        );
      case 'api_key': {
        const check = await checkApiKey(credential.raw, (prefix) =>
          this.keyCache.get(prefix, () => this.keys.candidates(prefix)),
        );
        if (!check.valid) throw new DomainError('unauthorized', 'invalid or revoked API key');
        if (this.touched.peek(check.keyId) === undefined) {
          this.touched.set(check.keyId, true);
          void this.keys.touch(check.keyId).catch(() => undefined);
        }
        return {
          kind: 'api_key',
          role: check.role,
          userId: check.userId,
          rateKey: `key:${check.prefix}`,
          addressHash,
          sessionJti: null,
        };
      }
      case 'bearer':
      case 'session': {
        const claims = this.jwt.verify(credential.token);
        if (claims === null) throw new DomainError('unauthorized', 'invalid or expired token');
        return this.fromClaims(claims, credential.kind, addressHash);
      }
    }
  }

  /** Forgets cached look-ups (after a revocation made through this gateway). */
  invalidate(): void {
    this.keyCache.clear();
    this.sessionCache.clear();
  }

  private async fromClaims(
    claims: TokenClaims,
    kind: 'bearer' | 'session',
    addressHash: string,
  ): Promise<Principal> {
    const jti = typeof claims.jti === 'string' ? claims.jti : null;
    if (kind === 'session' && jti === null)
      throw new DomainError('unauthorized', 'session token without jti');
    let role = normalizeRole(claims.role);
    if (typeof claims.kid === 'string') {
      // A token exchanged for an API key lives only as long as the key and its owner stay valid.
      const key = await this.keyCache.get(`id:${claims.kid}`, () =>
        this.keys.candidateById(claims.kid as string),
      );
      const match = key[0];
      if (
        match === undefined ||
        match.revoked ||
        match.owner_status !== 'active' ||
        match.user_id !== claims.sub
      ) {
        throw new DomainError('unauthorized', 'the API key behind this token was revoked');
      }
      role = boundRole(match.role, match.owner_role);
    }
    if (jti !== null) {
      // Session tokens (cookie, or the same token sent as Bearer) must match a live user_session row.
      const state = await this.sessionCache.get(jti, () => this.sessions.state(jti));
      if (state === null || state.revoked || state.expired || state.user_id !== claims.sub) {
        throw new DomainError('unauthorized', 'session revoked or expired');
      }
      if (state.user_status !== 'active') throw new DomainError('unauthorized', 'account is not active');
      role = normalizeRole(state.user_role);
    }
    return { kind, role, userId: claims.sub, rateKey: `sub:${claims.sub}`, addressHash, sessionJti: jti };
  }

  private credentialOf(request: FastifyRequest): Credential {
    const authorization = request.headers.authorization;
    if (typeof authorization === 'string' && authorization.trim() !== '') {
      const [scheme = '', ...rest] = authorization.trim().split(/\s+/);
      const value = rest.join(' ');
      if (scheme.toLowerCase() === 'apikey' && value !== '') return { kind: 'api_key', raw: value };
      if (scheme.toLowerCase() === 'bearer' && value !== '') return { kind: 'bearer', token: value };
      return { kind: 'unsupported', scheme };
    }
    const header = request.headers['x-api-key'];
    if (typeof header === 'string' && header.trim() !== '') return { kind: 'api_key', raw: header };
    const cookie = (request as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies?.[
      SESSION_COOKIE
    ];
    if (typeof cookie === 'string' && cookie !== '') return { kind: 'session', token: cookie };
    return { kind: 'none' };
  }
}
