import { Inject, Injectable } from '@nestjs/common';
import {
  API_KEY_TTL_DEFAULT_SECONDS,
  ApiKeyLoginRequest,
  ApiKeyView,
  CreateApiKeyRequest,
  DomainError,
  hasRoleAtLeast,
  RpcActor,
} from '@svc/contracts';
import { boundRole, mintApiKey } from '@svc/domain';
import {
  apiKeyLookup,
  ApiKeyRepository,
  AuditRepository,
  checkApiKey,
  UserRepository,
} from '@svc/persistence';
import { LoginThrottle } from '../accounts/login-throttle';
import { AUTH_CONTEXT, AuthContext } from '../auth-context';

/** API keys: minting (raw key shown once), listing, revocation, and exchange for a bearer token. */
@Injectable()
export class ApiKeysService {
  constructor(
    @Inject(AUTH_CONTEXT) private readonly ctx: AuthContext,
    private readonly throttle: LoginThrottle,
    private readonly keys: ApiKeyRepository,
    private readonly users: UserRepository,
    private readonly audit: AuditRepository,
  ) {}

  async create(body: CreateApiKeyRequest, actor: RpcActor): Promise<ApiKeyView & { key: string }> {
    if (actor.userId === null) throw new DomainError('unauthorized', 'sign in to create an API key');
    const isAdmin = hasRoleAtLeast(actor.role, 'admin');
    const ownerId = body.user_id ?? actor.userId;
    if (ownerId !== actor.userId && !isAdmin)
      throw new DomainError('forbidden', 'only administrators create keys for other users');
    const owner = await this.users.getById(ownerId);
    if (owner.status !== 'active') throw new DomainError('conflict', `the account is ${owner.status}`);
    if (!isAdmin) {
      // A researcher holds one key for themself, with researcher scope.
      if (owner.role === 'researcher' && (await this.keys.countActive(owner.id)) >= 1) {
        throw new DomainError(
          'conflict',
          'a researcher may hold one active API key; ask an administrator to revoke the old one',
        );
      }
    }
    const role = boundRole(body.role ?? owner.role, owner.role);
    if (body.role !== undefined && role !== body.role) {
      throw new DomainError('forbidden', `a key cannot carry role ${body.role}: its owner is ${owner.role}`);
    }
    const minted = mintApiKey();
    const view = await this.keys.create({
      userId: owner.id,
      name: body.name,
      prefix: minted.prefix,
      keyHash: minted.hash,
      role,
    });
    await this.audit.record(actor.userId, 'api_key_mint', view.id, {
      owner_id: owner.id,
      prefix: view.prefix,
      role,
    });
    return { ...view, key: minted.raw };
  }

  list(): Promise<ApiKeyView[]> {
    return this.keys.list();
  }

  async revoke(body: { id: string }, actor: RpcActor): Promise<ApiKeyView> {
    const view = await this.keys.revoke(body.id);
    await this.audit.record(actor.userId, 'api_key_revoke', view.id, { prefix: view.prefix });
    return view;
  }

  async login(
    body: ApiKeyLoginRequest,
    actor: RpcActor,
  ): Promise<{ token: string; token_type: 'bearer'; expires_in: number; role: string; sub: string }> {
    // Keys are throttled per address only: a key's prefix is public, so a per-prefix counter would let
    // anyone lock its owner out.
    const attempt = await this.throttle.admit({ flow: 'api_key_login', account: null, ipHash: actor.ipHash });
    const check = await checkApiKey(body.api_key, apiKeyLookup(this.keys));
    if (!check.valid) throw new DomainError('unauthorized', 'invalid or revoked API key');
    await attempt.succeeded();
    const ttl = body.ttl_seconds ?? API_KEY_TTL_DEFAULT_SECONDS;
    const token = this.ctx.jwt.sign({ sub: check.userId, role: check.role, kid: check.keyId }, ttl);
    await this.keys.touch(check.keyId);
    return { token, token_type: 'bearer', expires_in: ttl, role: check.role, sub: check.userId };
  }
}
