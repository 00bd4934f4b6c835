import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

export const DEDUP_KEY_LENGTH = 16;

/**
 * First 16 hex digits of SHA-256 over the canonical JSON of `{operation, payload}`, and the scope
 * when there is one (`dedupScopeOf`): jobs of different scopes are never duplicates of each other.
 */
export function computeDedupKey(input: {
  operation: string;
  payload: Record<string, unknown>;
  scope?: string | null;
}): string {
  const scoped = input.scope === undefined || input.scope === null ? {} : { scope: input.scope };
  const text = canonicalJson({ operation: input.operation, payload: input.payload, ...scoped });
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, DEDUP_KEY_LENGTH);
}

/**
 * Whose active jobs a new job is a duplicate of, so that a 409 says nothing about anyone else's work:
 * an account's jobs are compared with that account's own (`user:<id>`), a guest's with those of the
 * same daily address hash (`guest:<quota key>`), and the service's own jobs, like those made with
 * the credential gate off (every caller is staff then, and owns nothing), with everyone's (null: the
 * global key of `{operation, payload}`).
 */
export function dedupScopeOf(submitter: {
  ownerUserId: string | null;
  role: string | null;
  quotaKey: string | null;
}): string | null {
  if (submitter.ownerUserId !== null) return `user:${submitter.ownerUserId}`;
  if (submitter.role === 'guest') return `guest:${submitter.quotaKey ?? ''}`;
  return null;
}
