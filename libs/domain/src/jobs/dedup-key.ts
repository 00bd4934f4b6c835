import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

export const DEDUP_KEY_LENGTH = 16;

/** First 16 hex digits of SHA-256 over the canonical JSON of `{operation, payload}`. */
export function computeDedupKey(input: { operation: string; payload: Record<string, unknown> }): string {
  const text = canonicalJson({ operation: input.operation, payload: input.payload });
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, DEDUP_KEY_LENGTH);
}
