import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { oboContentSha256 } from './obo-content-hash';
import { parseObo } from './obo-parser';

const RELEASE = [
  'format-version: 1.2',
  'data-version: releases/2099-01-01',
  '',
  '[Term]',
  'id: GO:0000001',
  'name: root',
  'namespace: biological_process',
  'alt_id: GO:0000009',
  '',
  '[Term]',
  'id: GO:0000002',
  'name: child',
  'namespace: biological_process',
  'is_a: GO:0000001 ! root',
  'relationship: part_of GO:0000001',
  '',
];

const hashOf = (lines: string[]): string => oboContentSha256(parseObo(lines.join('\n')));

describe('oboContentSha256', () => {
  const base = hashOf(RELEASE);

  it('ignores headers, comments, line endings and stanza order', () => {
    const reordered = [...RELEASE.slice(0, 3), ...RELEASE.slice(9), ...RELEASE.slice(3, 9)];
    expect(hashOf(reordered)).toBe(base);
    expect(hashOf(RELEASE.map((l) => (l.startsWith('data-version') ? 'data-version: other' : l)))).toBe(base);
    expect(oboContentSha256(parseObo(RELEASE.join('\r\n')))).toBe(base);
    expect(hashOf(RELEASE.map((l) => (l.startsWith('name: child') ? `${l} ! a comment` : l)))).toBe(base);
  });

  it.each<[string, (l: string) => string]>([
    ['a renamed term', (l) => (l === 'name: child' ? 'name: kid' : l)],
    ['another aspect', (l) => (l === 'namespace: biological_process' ? 'namespace: cellular_component' : l)],
    ['a dropped edge', (l) => (l.startsWith('relationship:') ? '' : l)],
    ['another alt id', (l) => (l === 'alt_id: GO:0000009' ? 'alt_id: GO:0000008' : l)],
  ])('changes with %s', (_, edit) => {
    expect(hashOf(RELEASE.map(edit))).not.toBe(base);
  });

  it('tells a subset from its release', () => {
    expect(hashOf(RELEASE.slice(0, 9))).not.toBe(base);
  });

  it('is stable on a real GO subset (a 64-digit hex digest)', () => {
    const file = join(__dirname, '../../../../fixtures/go-subset.2022-07-01.obo');
    const doc = parseObo(readFileSync(file, 'utf8'));
    const digest = oboContentSha256(doc);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(oboContentSha256({ ...doc, terms: [...doc.terms].reverse() })).toBe(digest);
  });
});
