import { DomainError } from '@svc/contracts';
import { assertJsonWithin, isJsonDepthWithin, jsonByteLength, JsonDepthScanner } from './json-limits';

const nest = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('isJsonDepthWithin', () => {
  it.each([
    { name: 'a scalar has depth 0', text: '42', max: 0, expected: true },
    { name: 'an empty object is one level', text: '{}', max: 1, expected: true },
    { name: 'an empty object over a cap of 0', text: '{}', max: 0, expected: false },
    { name: 'exactly at the cap', text: nest(64), max: 64, expected: true },
    { name: 'one past the cap', text: nest(65), max: 64, expected: false },
    {
      name: 'siblings do not add up',
      text: `[${Array(100).fill('[[]]').join(',')}]`,
      max: 3,
      expected: true,
    },
    { name: 'objects and arrays mixed', text: '{"a":[{"b":[1]}]}', max: 4, expected: true },
    { name: 'mixed, one too deep', text: '{"a":[{"b":[1]}]}', max: 3, expected: false },
    {
      name: 'brackets inside a string do not count',
      text: `{"a":"${'['.repeat(500)}"}`,
      max: 1,
      expected: true,
    },
    {
      name: 'an escaped quote keeps the string open',
      text: `{"a":"\\"${'{'.repeat(500)}"}`,
      max: 1,
      expected: true,
    },
    { name: 'an escaped backslash closes the string', text: `["\\\\",${nest(5)}]`, max: 5, expected: false },
    { name: 'a deep value after a string', text: `{"k":"]]]]","v":${nest(3)}}`, max: 3, expected: false },
    { name: 'deep nesting of 3000 levels', text: nest(3000), max: 64, expected: false },
    { name: 'invalid JSON with stray closers stays within', text: ']]]]}}}}', max: 1, expected: true },
  ])('$name', ({ text, max, expected }) => {
    expect(isJsonDepthWithin(text, max)).toBe(expected);
  });

  it('gives the same answer when the text arrives in pieces split anywhere', () => {
    const text = `{"s":"a\\"[[[\\\\","v":${nest(10)}}`;
    for (let cut = 0; cut <= text.length; cut += 1) {
      const within = new JsonDepthScanner(11);
      const over = new JsonDepthScanner(10);
      const fed = [text.slice(0, cut), text.slice(cut)];
      expect(fed.every((piece) => within.feed(piece))).toBe(true);
      expect(fed.every((piece) => over.feed(piece))).toBe(false);
    }
  });
});

describe('assertJsonWithin', () => {
  it('accepts a value up to the limit, measured in UTF-8 bytes of its JSON text', () => {
    const value = { s: 'é'.repeat(10) };
    const bytes = jsonByteLength(value);
    expect(bytes).toBe(Buffer.byteLength(JSON.stringify(value)));
    expect(() => assertJsonWithin(value, bytes, 'config')).not.toThrow();
    expect(() => assertJsonWithin(undefined, 0, 'config')).not.toThrow();
  });

  it('refuses a larger value with 413 payload_too_large naming the field and the limit', () => {
    let error: unknown;
    try {
      assertJsonWithin({ padding: 'x'.repeat(2048) }, 1024, 'config');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('payload_too_large');
    expect((error as DomainError).message).toContain('config');
    expect((error as DomainError).extra).toEqual({ field: 'config', limit_bytes: 1024 });
  });

  it('treats a value that cannot be written as JSON as too large', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(jsonByteLength(cyclic)).toBe(Number.POSITIVE_INFINITY);
    expect(() => assertJsonWithin(cyclic, 1024, 'payload')).toThrow(/payload takes too many bytes/);
  });
});
