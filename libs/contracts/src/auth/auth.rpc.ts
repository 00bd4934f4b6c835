import type { ErrorCode } from '../errors';
import type { Role } from '../roles';

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
} as const;
export type AuthRpcPattern = (typeof AUTH_RPC)[keyof typeof AUTH_RPC];

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
