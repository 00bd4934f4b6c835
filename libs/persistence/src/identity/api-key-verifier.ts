import type { Role } from '@svc/contracts';
import { API_KEY_PREFIX_LENGTH, boundRole, hexDigestsEqual, sha256Hex } from '@svc/domain';
import { ApiKeyCandidate, ApiKeyRepository } from './api-key.repository';

export type ApiKeyCheck =
  | { valid: true; keyId: string; userId: string; role: Role; prefix: string }
  | { valid: false; reason: 'malformed' | 'unknown' | 'revoked' | 'owner_inactive' };

/**
 * Looks a raw key up by its 8-character prefix and compares SHA-256(raw) with each candidate's
 * stored hash in constant time. `lookup` may be cached by the caller (the credential gate caches for
 * at most a couple of seconds, so a revocation takes effect within the 5 s the service promises).
 */
export async function checkApiKey(
  raw: string,
  lookup: (prefix: string) => Promise<ApiKeyCandidate[]>,
): Promise<ApiKeyCheck> {
  const key = raw.trim();
  if (key.length < API_KEY_PREFIX_LENGTH + 8 || key.length > 200)
    return { valid: false, reason: 'malformed' };
  const prefix = key.slice(0, API_KEY_PREFIX_LENGTH);
  const hash = sha256Hex(key);
  const match = (await lookup(prefix)).find((candidate) => hexDigestsEqual(candidate.key_hash, hash));
  if (match === undefined) return { valid: false, reason: 'unknown' };
  if (match.revoked) return { valid: false, reason: 'revoked' };
  if (match.owner_status !== 'active') return { valid: false, reason: 'owner_inactive' };
  return {
    valid: true,
    keyId: match.id,
    userId: match.user_id,
    role: boundRole(match.role, match.owner_role),
    prefix,
  };
}

export function apiKeyLookup(repository: ApiKeyRepository): (prefix: string) => Promise<ApiKeyCandidate[]> {
  return (prefix) => repository.candidates(prefix);
}
