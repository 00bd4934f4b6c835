import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX_LENGTH = 8;

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Compares two hex digests in constant time (different lengths are simply unequal). */
export function hexDigestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

export interface MintedApiKey {
  /** Shown once to the caller; never stored. */
  raw: string;
  prefix: string;
  hash: string;
}

/** 32 random bytes as base64url (43 characters); the first 8 are the lookup prefix. */
export function mintApiKey(random: (size: number) => Buffer = randomBytes): MintedApiKey {
  const raw = random(32).toString('base64url');
  return { raw, prefix: raw.slice(0, API_KEY_PREFIX_LENGTH), hash: sha256Hex(raw) };
}

/** A single-use token for e-mail links (magic link, password reset). */
export function mintLinkToken(random: (size: number) => Buffer = randomBytes): { raw: string; hash: string } {
  const raw = random(32).toString('base64url');
  return { raw, hash: sha256Hex(raw) };
}

/** First 16 hex digits of SHA-256 over a salt followed by the client address; the address is never kept. */
export function addressHash(salt: Buffer, address: string): string {
  return createHash('sha256').update(salt).update(address, 'utf8').digest('hex').slice(0, 16);
}
