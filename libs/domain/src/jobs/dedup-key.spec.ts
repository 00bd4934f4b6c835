import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { computeDedupKey, dedupScopeOf } from './dedup-key';

describe('canonicalJson', () => {
  const cases: { name: string; input: unknown; expected: string }[] = [
    {
      name: 'sorts keys recursively',
      input: { b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } },
      expected: '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}',
    },
    { name: 'escapes non-ASCII', input: { name: 'café ✓' }, expected: '{"name":"caf\\u00e9 \\u2713"}' },
    { name: 'escapes astral characters as surrogate pairs', input: '🧬', expected: '"\\ud83e\\uddec"' },
    { name: 'drops undefined members', input: { a: undefined, b: false }, expected: '{"b":false}' },
    { name: 'empty containers', input: { a: {}, b: [] }, expected: '{"a":{},"b":[]}' },
    { name: 'quotes and control characters', input: 'a"b\n', expected: '"a\\"b\\n"' },
  ];
  it.each(cases)('$name', ({ input, expected }) => expect(canonicalJson(input)).toBe(expected));

  it('rejects non-finite numbers', () => expect(() => canonicalJson({ x: Number.NaN })).toThrow(TypeError));
});

describe('computeDedupKey', () => {
  it('is the first 16 hex of sha256 over the canonical text', () => {
    const expected = createHash('sha256')
      .update('{"operation":"ping","payload":{"a":1,"b":"x"}}')
      .digest('hex')
      .slice(0, 16);
    expect(computeDedupKey({ operation: 'ping', payload: { b: 'x', a: 1 } })).toBe(expected);
  });

  it('does not depend on key order and differs by payload', () => {
    const a = computeDedupKey({ operation: 'ping', payload: { x: 1, y: { p: 1, q: 2 } } });
    const b = computeDedupKey({ operation: 'ping', payload: { y: { q: 2, p: 1 }, x: 1 } });
    const c = computeDedupKey({ operation: 'ping', payload: { x: 2, y: { q: 2, p: 1 } } });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('computeDedupKey with a scope', () => {
  const job = { operation: 'ping', payload: { message: 'same' } };

  it('keeps the global key without a scope, and separates scopes', () => {
    const global = computeDedupKey(job);
    expect(computeDedupKey({ ...job, scope: null })).toBe(global);
    const alice = computeDedupKey({ ...job, scope: 'user:a' });
    const bob = computeDedupKey({ ...job, scope: 'user:b' });
    expect(new Set([global, alice, bob]).size).toBe(3);
    expect(computeDedupKey({ ...job, scope: 'user:a' })).toBe(alice);
    expect(alice).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('dedupScopeOf', () => {
  it('is the owner for accounts, the address key for guests, and global for the service', () => {
    expect(dedupScopeOf({ ownerUserId: 'u1', role: 'researcher', quotaKey: 'u1' })).toBe('user:u1');
    expect(dedupScopeOf({ ownerUserId: 'u2', role: 'operator', quotaKey: 'u2' })).toBe('user:u2');
    expect(dedupScopeOf({ ownerUserId: null, role: 'guest', quotaKey: 'ip:abc' })).toBe('guest:ip:abc');
    // The service's own jobs, and those made with the credential gate off (staff without an account).
    expect(dedupScopeOf({ ownerUserId: null, role: null, quotaKey: null })).toBeNull();
    expect(dedupScopeOf({ ownerUserId: null, role: 'admin', quotaKey: 'ip:abc' })).toBeNull();
  });
});
