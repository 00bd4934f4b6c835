import { createHash, createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DomainError, normalizeRole, SESSION_COOKIE } from '@svc/contracts';
import { boundRole } from '@svc/domain';
import {
  ApiKeyCandidate,
  ApiKeyCheck,
  ApiKeyRepository,
  checkApiKey,
  Repositories,
  SessionRepository,
  SessionState,
} from '@svc/persistence';
import { addressGroupOf, AppConfig, JwtCodec, Principal, TokenClaims } from '@svc/platform';
import { TtlCache } from './ttl-cache';

/** Key and session lookups are cached this long, so a revocation takes effect within the promised 5 s. */
const LOOKUP_TTL_MS = 2000;
const TOUCH_INTERVAL_MS = 60_000;
/** A refused credential is refused again from memory for this long: a repeated forgery costs no lookup. */
const FAILURE_TTL_MS = 5000;
const FAILURE_CACHE_ENTRIES = 10_000;

/** Whether an address has spent its budget of failed credential checks (see CredentialFailureLimiter). */
export interface FailureBudget {
  isExhausted(addressHash: string): boolean;
}

/**
 * The rate-limit bucket of a caller: the person (`user:<id>`) for every credential of an account (API
 * key, bearer token, session), so that holding several credentials buys no extra rate; the daily
 * address hash for an anonymous caller. Both are verified, never the credential's text.
 */
export function rateKeyOf(userId: string | null, addressHash: string): string {
  return userId !== null ? `user:${userId}` : `ip:${addressHash}`;
}

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
  private readonly refused = new TtlCache<string>(FAILURE_TTL_MS, FAILURE_CACHE_ENTRIES);

  constructor(
    private readonly config: AppConfig,
    repos: Pick<Repositories, 'apiKeys' | 'sessions'>,
    private readonly jwt: JwtCodec,
    private readonly addressSecret: Buffer,
    private readonly failureBudget: FailureBudget = { isExhausted: () => false },
  ) {
    this.keys = repos.apiKeys;
    this.sessions = repos.sessions;
  }

  /**
   * Daily-rotated, installation-wide hash of the client's address group (the same on every replica):
   * the IPv4 address, or the /64 of an IPv6 address, so a subscriber's many IPv6 addresses are one
   * caller for every limit and quota keyed on it.
   */
  addressHash(address: string): string {
    const day = new Date().toISOString().slice(0, 10);
    return createHmac('sha256', this.addressSecret)
      .update(`${day}|${addressGroupOf(address)}`)
      .digest('hex')
      .slice(0, 16);
  }

  /**
   * Who the caller is; 401 for a presented credential that is invalid, revoked or expired. The
   * principal's rate key is verified: the account behind the key or token, or the address hash.
   */
  async authenticate(request: FastifyRequest): Promise<Principal> {
    const addressHash = this.addressHash(request.ip);
    if (!this.config.authnRequired) {
      return {
        kind: 'gate_disabled',
        role: 'admin',
        userId: null,
        rateKey: rateKeyOf(null, addressHash),
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
          rateKey: rateKeyOf(null, addressHash),
          addressHash,
          sessionJti: null,
        };
      case 'unsupported':
        throw new DomainError(
          'unauthorized',
          `unsupported authorization scheme '${credential.scheme}'; use ApiKey or Bearer`,
        );
      case 'api_key': {
        const check = await this.checkKey(credential.raw, addressHash);
        if (this.touched.peek(check.keyId) === undefined) {
          this.touched.set(check.keyId, true);
          void this.keys.touch(check.keyId).catch(() => undefined);
        }
        return {
          kind: 'api_key',
          role: check.role,
          userId: check.userId,
          rateKey: rateKeyOf(check.userId, addressHash),
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

  /**
   * True when the request presents an API key: the only credential whose check can cost a database
   * look-up for a forged value. Session cookies and bearer tokens are verified locally, and an expired
   * or revoked session (a browser still polling) must not use up its address's failure budget.
   */
  presentsApiKey(request: FastifyRequest): boolean {
    return this.credentialOf(request).kind === 'api_key';
  }

  /** Forgets cached look-ups (after a revocation made through this gateway). */
  invalidate(): void {
    this.keyCache.clear();
    this.sessionCache.clear();
    this.refused.clear();
  }

  /**
   * Verifies an API key. A key refused in the last few seconds is refused again without a lookup;
   * from an address that has spent its failure budget, only keys whose candidates are already cached
   * are checked, so a flood of fresh forgeries reaches the database no more.
   */
  private async checkKey(raw: string, addressHash: string): Promise<ApiKeyCheck & { valid: true }> {
    const digest = createHash('sha256').update(raw.trim()).digest('base64');
    const refusal = this.refused.peek(digest);
    if (refusal !== undefined) throw new DomainError('unauthorized', await refusal);
    const exhausted = this.failureBudget.isExhausted(addressHash);
    let skipped = false;
    const check = await checkApiKey(raw, (prefix) => {
      const cached = this.keyCache.peek(prefix);
      if (cached !== undefined) return cached;
      if (exhausted) {
        skipped = true;
        return Promise.resolve([]);
      }
      return this.keyCache.get(prefix, () => this.keys.candidates(prefix));
    });
    if (!check.valid) {
      const message = 'invalid or revoked API key';
      // A key refused unseen may be genuine: only a key refused after its lookup is remembered.
      if (!skipped) this.refused.set(digest, message);
      throw new DomainError('unauthorized', message);
    }
    return check;
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
    return {
      kind,
      role,
      userId: claims.sub,
      rateKey: rateKeyOf(claims.sub, addressHash),
      addressHash,
      sessionJti: jti,
    };
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
