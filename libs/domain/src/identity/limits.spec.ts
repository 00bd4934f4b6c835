import { boundRole, parseRate, secondsUntilWindowEnd, windowStart } from './limits';
import { addressHash, hexDigestsEqual, mintApiKey, sha256Hex } from './credentials';

describe('parseRate', () => {
  it.each([
    ['100/minute', { limit: 100, windowSeconds: 60 }],
    ['5/hour', { limit: 5, windowSeconds: 3600 }],
    [' 1/second ', { limit: 1, windowSeconds: 1 }],
    ['7/day', { limit: 7, windowSeconds: 86_400 }],
    ['10/minutes', null],
    ['ten/minute', null],
    ['', null],
  ])('%s', (text, expected) => expect(parseRate(text)).toEqual(expected));
});

describe('windows', () => {
  it('aligns windows to the epoch and counts seconds to the end', () => {
    const now = Date.UTC(2026, 0, 1, 10, 15, 42, 500);
    expect(windowStart(now, 60).toISOString()).toBe('2026-01-01T10:15:00.000Z');
    expect(windowStart(now, 86_400).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(secondsUntilWindowEnd(now, 60)).toBe(18);
    expect(secondsUntilWindowEnd(Date.UTC(2026, 0, 1, 10, 15, 59, 999), 60)).toBe(1);
  });
});

describe('boundRole', () => {
  it.each([
    [undefined, 'operator', 'operator'],
    ['researcher', 'operator', 'researcher'],
    ['admin', 'researcher', 'researcher'],
    ['guest', 'admin', 'guest'],
  ] as const)('asked %s, owner %s -> %s', (asked, owner, expected) =>
    expect(boundRole(asked, owner)).toBe(expected),
  );
});

describe('credentials', () => {
  it('mints a key whose prefix is its first 8 characters and whose hash is SHA-256 hex', () => {
    const key = mintApiKey();
    expect(key.raw).toHaveLength(43);
    expect(key.prefix).toBe(key.raw.slice(0, 8));
    expect(key.hash).toBe(sha256Hex(key.raw));
    expect(key.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(mintApiKey().raw).not.toBe(key.raw);
  });

  it('compares digests in constant time and rejects malformed input', () => {
    const a = sha256Hex('a');
    expect(hexDigestsEqual(a, sha256Hex('a'))).toBe(true);
    expect(hexDigestsEqual(a, sha256Hex('b'))).toBe(false);
    expect(hexDigestsEqual(a, a.slice(0, 10))).toBe(false);
    expect(hexDigestsEqual('', '')).toBe(false);
  });

  it('hashes addresses to 16 hex digits that change with the salt', () => {
    const one = addressHash(Buffer.alloc(32, 1), '127.0.0.1');
    expect(one).toMatch(/^[0-9a-f]{16}$/);
    expect(addressHash(Buffer.alloc(32, 1), '127.0.0.1')).toBe(one);
    expect(addressHash(Buffer.alloc(32, 2), '127.0.0.1')).not.toBe(one);
  });
});
