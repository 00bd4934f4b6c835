import type { ErrorCode } from '../errors';
import type { Role } from '../roles';
import type { ListAuditQuery } from './auth.queries';
import type {
  ApiKeyLoginRequest,
  ApproveUserRequest,
  ChangePasswordRequest,
  CreateApiKeyRequest,
  EmailRequest,
  LoginRequest,
  PasswordResetConsumeRequest,
  SignupRequest,
  UpdateUserRequest,
} from './auth.requests';
import type { ApiKeyView, AuditEntryView, UserStatus, UserView } from './auth.views';

/** The queue auth-service answers on (request/reply over AMQP). */
export const AUTH_RPC_QUEUE = 'svc.auth';

/** Who asks: the caller as the gateway's credential gate identified it. */
export interface RpcActor {
  userId: string | null;
  role: Role;
  ipHash: string | null;
  userAgent: string | null;
}

export const AUTH_RPC = {
  signup: 'auth.signup',
  login: 'auth.login',
  logout: 'auth.logout',
  me: 'auth.me',
  createApiKey: 'auth.api_keys.create',
  listApiKeys: 'auth.api_keys.list',
  revokeApiKey: 'auth.api_keys.revoke',
  apiKeyLogin: 'auth.api_key_login',
  revokeSessions: 'auth.sessions.revoke_all',
  listUsers: 'auth.users.list',
  approveUser: 'auth.users.approve',
  updateUser: 'auth.users.update',
  deleteUser: 'auth.users.delete',
  listAudit: 'auth.audit.list',
  resetDb: 'auth.reset_db',
  magicLinkRequest: 'auth.magic_link.request',
  magicLinkConsume: 'auth.magic_link.consume',
  passwordResetRequest: 'auth.password_reset.request',
  passwordResetConsume: 'auth.password_reset.consume',
  changePassword: 'auth.password.change',
} as const;
export type AuthRpcPattern = (typeof AUTH_RPC)[keyof typeof AUTH_RPC];

/**
 * What each auth RPC takes (its request body) and answers. The gateway's client and the auth
 * service's handlers are both typed by it, so neither side can send or expect another shape.
 */
export interface AuthRpcMap {
  'auth.signup': { body: SignupRequest; reply: Pick<UserView, 'id' | 'email' | 'username' | 'status'> };
  'auth.login': { body: LoginRequest; reply: SessionGrant };
  'auth.logout': { body: { jti: string | null }; reply: { revoked: boolean } };
  'auth.me': { body: { jti: string | null }; reply: UserView };
  'auth.api_keys.create': { body: CreateApiKeyRequest; reply: ApiKeyView & { key: string } };
  'auth.api_keys.list': { body: Record<string, never>; reply: ApiKeyView[] };
  'auth.api_keys.revoke': { body: { id: string }; reply: ApiKeyView };
  'auth.api_key_login': {
    body: ApiKeyLoginRequest;
    reply: { token: string; token_type: 'bearer'; expires_in: number; role: string; sub: string };
  };
  'auth.sessions.revoke_all': {
    body: { user_id: string };
    reply: { user_id: string; sessions_revoked: number };
  };
  'auth.users.list': { body: { status?: UserStatus }; reply: UserView[] };
  'auth.users.approve': { body: { id: string } & ApproveUserRequest; reply: UserView };
  'auth.users.update': { body: { id: string } & UpdateUserRequest; reply: UserView };
  'auth.users.delete': { body: { id: string }; reply: { id: string; deleted: boolean } };
  'auth.audit.list': { body: ListAuditQuery; reply: AuditEntryView[] };
  'auth.reset_db': { body: Record<string, never>; reply: { reset: true; migrations_applied: string[] } };
  'auth.magic_link.request': { body: EmailRequest; reply: { accepted: true } };
  'auth.magic_link.consume': { body: { token: string }; reply: SessionGrant };
  'auth.password_reset.request': { body: EmailRequest; reply: { accepted: true } };
  'auth.password_reset.consume': {
    body: PasswordResetConsumeRequest;
    reply: { reset: true; sessions_revoked: number };
  };
  /** `jti` is the caller's session; null for an API key or a bearer token, which are refused. */
  'auth.password.change': {
    body: ChangePasswordRequest & { jti: string | null };
    reply: { changed: true; sessions_revoked: number };
  };
}

/** The body an auth RPC takes, and what it answers. */
export type AuthRpcBody<K extends AuthRpcPattern> = AuthRpcMap[K]['body'];
export type AuthRpcResult<K extends AuthRpcPattern> = AuthRpcMap[K]['reply'];

export interface RpcRequest<T = unknown> {
  actor: RpcActor;
  body: T;
}

/** Replies never throw across the broker: errors travel as data and are raised again by the caller. */
export type RpcReply<T = unknown> =
  | { ok: true; value: T }
  | { ok: false; error: { code: ErrorCode; message: string; extra: Record<string, unknown> } };

/** A session created by login or a magic link: the gateway turns `token` into the cookie. */
export interface SessionGrant {
  token: string;
  max_age_seconds: number;
  user: {
    id: string;
    email: string;
    username: string;
    display_name: string;
    role: Role;
    status: string;
  };
}
