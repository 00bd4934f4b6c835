import jwt from 'jsonwebtoken';

export interface TokenClaims {
  sub: string;
  iat: number;
  exp: number;
  jti?: string;
  role?: string;
  status?: string;
  [claim: string]: unknown;
}

/** HS256 tokens: sign for sessions and API-key logins, verify in the credential gate (no round trip). */
export class JwtCodec {
  constructor(private readonly secret: string) {}

  sign(claims: Omit<TokenClaims, 'iat' | 'exp'>, ttlSeconds: number): string {
    return jwt.sign(claims, this.secret, { algorithm: 'HS256', expiresIn: ttlSeconds });
  }

  /** The claims of a valid token (signature, `exp`, and present `sub`/`iat`/`exp`), else null. */
  verify(token: string): TokenClaims | null {
    try {
      const claims = jwt.verify(token, this.secret, { algorithms: ['HS256'] });
      if (typeof claims !== 'object' || claims === null) return null;
      const { sub, iat, exp } = claims;
      if (typeof sub !== 'string' || sub === '' || typeof iat !== 'number' || typeof exp !== 'number')
        return null;
      return claims as TokenClaims;
    } catch {
      return null;
    }
  }
}
