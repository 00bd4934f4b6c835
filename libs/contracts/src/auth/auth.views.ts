import type { Role } from '../roles';

export type UserStatus = 'pending' | 'active' | 'deactivated';

export interface UserView {
  id: string;
  email: string;
  username: string;
  display_name: string;
  role: Role;
  status: UserStatus;
  intended_use: string | null;
  created_at: string;
  last_login_at: string | null;
}

export interface ApiKeyView {
  id: string;
  user_id: string;
  prefix: string;
  name: string;
  created_at: string;
  role: Role | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface AuditEntryView {
  id: number;
  actor_user_id: string | null;
  action: string;
  target: string | null;
  payload: Record<string, unknown>;
  occurred_at: string;
}

/** Name of the session cookie. */
export const SESSION_COOKIE = 'svc_session';
export const SESSION_LIFETIME_SECONDS = 30 * 24 * 3600;
