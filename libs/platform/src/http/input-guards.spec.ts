import { DomainError } from '@svc/contracts';
import { findUnstorableText, lowerCaseUuidSegments, rejectUnstorableText } from './input-guards';

const UPPER = '3F2504E0-4F89-11D3-9A0C-0305E82C3301';
const LOWER = UPPER.toLowerCase();

describe('lowerCaseUuidSegments', () => {
  it.each([
    { name: 'a path id', url: `/v1/jobs/${UPPER}`, expected: `/v1/jobs/${LOWER}` },
    {
      name: 'an id before a sub-path',
      url: `/v1/jobs/${UPPER}/events`,
      expected: `/v1/jobs/${LOWER}/events`,
    },
    { name: 'two ids', url: `/e/${UPPER}/r/${UPPER}`, expected: `/e/${LOWER}/r/${LOWER}` },
    {
      name: 'the query is left alone',
      url: `/v1/jobs/${UPPER}?x=${UPPER}`,
      expected: `/v1/jobs/${LOWER}?x=${UPPER}`,
    },
    { name: 'a legacy path without /v1', url: `/jobs/${UPPER}`, expected: `/jobs/${LOWER}` },
    { name: 'part of a longer segment', url: `/v1/datasets/${UPPER}-X`, expected: `/v1/datasets/${UPPER}-X` },
    { name: 'a file name', url: `/v1/x/${UPPER}.tsv`, expected: `/v1/x/${UPPER}.tsv` },
    { name: 'not a UUID', url: '/v1/proteins/P12345', expected: '/v1/proteins/P12345' },
    { name: 'the root', url: '/', expected: '/' },
  ])('$name', ({ url, expected }) => {
    expect(lowerCaseUuidSegments(url)).toBe(expected);
  });
});

function nested(levels: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i += 1) value = { a: value };
  return value;
}

describe('findUnstorableText', () => {
  it.each([
    { name: 'clean input', value: { a: 'text', b: [1, 'two'], c: null, d: true }, paths: [] },
    { name: 'a NUL in a value', value: { description: 'a\u0000b' }, paths: ['description'] },
    { name: 'a NUL in a key', value: { meta: { 'k\u0000': 1 } }, paths: ['meta.k\u0000'] },
    { name: 'a NUL in an array item', value: { tags: ['ok', '\u0000'] }, paths: ['tags[1]'] },
    { name: 'a bare string', value: '\u0000', paths: [''] },
    { name: 'a lone high surrogate', value: { a: 'x\ud800y' }, paths: ['a'] },
    { name: 'a lone low surrogate', value: { a: '\udc00' }, paths: ['a'] },
    { name: 'a surrogate pair (an emoji) is fine', value: { a: '🧬' }, paths: [] },
    { name: 'other control characters are stored fine', value: { a: '\u0001\u001b\u007f' }, paths: [] },
    {
      name: 'several, in document order',
      value: { a: '\u0000', b: { c: ['\u0000'] }, d: '\ud800' },
      paths: ['a', 'b.c[0]', 'd'],
    },
  ])('$name', ({ value, paths }) => {
    expect(findUnstorableText(value)).toEqual(paths);
  });

  it('walks 100 000 levels without overflowing the stack', () => {
    expect(findUnstorableText(nested(100_000, 'a\u0000b'))).toEqual([`${'a.'.repeat(99_999)}a`]);
  });

  it('stops at the limit', () => {
    expect(
      findUnstorableText(
        Array.from({ length: 50 }, () => '\u0000'),
        5,
      ),
    ).toHaveLength(5);
  });
});

describe('rejectUnstorableText', () => {
  it('is a validation error listing each field', () => {
    const thrown = (() => {
      try {
        rejectUnstorableText({ name: 'a\u0000', ok: 'b' }, 'the request body');
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(DomainError);
    expect(thrown).toMatchObject({ code: 'validation_error', fieldErrors: [{ path: 'name' }] });
  });

  it('accepts clean input', () => {
    expect(() => rejectUnstorableText({ name: 'fine' }, 'the request body')).not.toThrow();
  });
});
