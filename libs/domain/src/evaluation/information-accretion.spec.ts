import { parseCafaOntology } from './cafa-ontology';
import { informationAccretion } from './information-accretion';

// A diamond: B and C under the root A, D under both B and C; E in another namespace.
const OBO = [
  '[Term]',
  'id: X:A',
  'namespace: x',
  '[Term]',
  'id: X:B',
  'namespace: x',
  'is_a: X:A',
  '[Term]',
  'id: X:C',
  'namespace: x',
  'is_a: X:A',
  '[Term]',
  'id: X:D',
  'namespace: x',
  'is_a: X:B',
  'relationship: part_of X:C',
  '[Term]',
  'id: Y:R',
  'namespace: y',
  '[Term]',
  'id: Y:E',
  'namespace: y',
  'is_a: Y:R',
].join('\n');

describe('informationAccretion', () => {
  const ontology = parseCafaOntology(OBO);

  it('is -log2 of the share of proteins with all parents of a term that also carry the term', () => {
    const ia = informationAccretion(ontology, [
      { protein: 'p1', term: 'X:D' }, // A B C D
      { protein: 'p2', term: 'X:B' }, // A B
      { protein: 'p3', term: 'X:C' }, // A C
      { protein: 'p4', term: 'X:A' }, // A
      { protein: 'p5', term: 'X:B' }, // A B C: B and C co-occur without D
      { protein: 'p5', term: 'X:C' },
      { protein: 'p1', term: 'Y:E' },
      { protein: 'p2', term: 'Y:R' },
    ]);
    expect(ia.get('X:B')).toBeCloseTo(Math.log2(5 / 3), 12);
    expect(ia.get('X:C')).toBeCloseTo(Math.log2(5 / 3), 12);
    expect(ia.get('X:D')).toBeCloseTo(1, 12); // 1 of the 2 proteins with B and C
    expect(ia.get('Y:E')).toBeCloseTo(1, 12);
    expect(ia.has('X:A')).toBe(false); // roots carry no information
    expect(ia.has('Y:R')).toBe(false);
  });

  it('gives 0 to a term every protein with its parents has, and nothing to unseen terms', () => {
    const ia = informationAccretion(ontology, [
      { protein: 'p1', term: 'X:D' },
      { protein: 'p2', term: 'X:A' },
    ]);
    expect(ia.get('X:D')).toBe(0);
    expect(ia.get('X:B')).toBeCloseTo(1, 12);
    expect(ia.has('Y:E')).toBe(false);
  });
});
