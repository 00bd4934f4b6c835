import { JwtCodec, Mailer, PasswordHasher } from '@svc/platform';
import { Infrastructure } from '@svc/bootstrap';

export const AUTH_CONTEXT = Symbol('AUTH_CONTEXT');

/** What every auth use case needs: the process infrastructure plus crypto and mail. */
export interface AuthContext {
  infra: Infrastructure;
  jwt: JwtCodec;
  passwords: PasswordHasher;
  mailer: Mailer | null;
}
