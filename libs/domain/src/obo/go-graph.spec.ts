import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GoGraph } from './go-graph';
import { parseObo } from './obo-parser';
import type { RelationType } from './obo-types';

// A small process ontology with every awkward case the graph has to handle:
//
//   GO:1 root
//   GO:2 is_a 1          GO:3 is_a 1
//   GO:4 is_a 2, part_of 3
//   GO:5 is_a 4, regulates 3, alt_id GO:50
//   GO:6 is_a 5, negatively_regulates 2, positively_regulates 4
//   GO:7 obsolete, alt_id GO:70
//   GO:8 is_a GO:50 (an alt id), is_a GO:99 (not in the file)
//   GO:9 <-> GO:10 is_a cycle (malformed, must not loop)
//   GO:11 part_of 6, has_part 1 (dropped by the parser)
const SMALL = `
format-version: 1.2

[Term]
id: GO:1
namespace: biological_process

[Term]
id: GO:2
namespace: biological_process
is_a: GO:1

[Term]
id: GO:3
namespace: biological_process
is_a: GO:1

[Term]
id: GO:4
namespace: biological_process
is_a: GO:2
relationship: part_of GO:3

[Term]
id: GO:5
namespace: biological_process
alt_id: GO:50
is_a: GO:4
relationship: regulates GO:3

[Term]
id: GO:6
namespace: biological_process
is_a: GO:5
relationship: negatively_regulates GO:2
relationship: positively_regulates GO:4

[Term]
id: GO:7
name: obsolete thing
namespace: molecular_function
alt_id: GO:70
is_obsolete: true

[Term]
id: GO:8
namespace: biological_process
is_a: GO:50
is_a: GO:99

[Term]
id: GO:9
namespace: cellular_component
is_a: GO:10

[Term]
id: GO:10
namespace: cellular_component
is_a: GO:9

[Term]
id: GO:11
namespace: biological_process
relationship: part_of GO:6
relationship: has_part GO:1
`;

const graph = new GoGraph(parseObo(SMALL));
const ALL: RelationType[] = ['is_a', 'part_of', 'regulates', 'negatively_regulates', 'positively_regulates'];

interface ClosureCase {
  id: string;
  relations?: RelationType[];
  expected: string[];
}

/** Adds a readable label for the relations (the default when none are given). */
function labelled(cases: ClosureCase[]): (ClosureCase & { via: string })[] {
  return cases.map((c) => ({ ...c, via: c.relations?.join('+') ?? 'default' }));
}

describe('GoGraph: lookups', () => {
  it.each([
    ['GO:1', 'GO:1'],
    ['GO:50', 'GO:5'],
    ['GO:7', 'GO:7'],
    ['GO:70', 'GO:7'],
    ['GO:99', null],
    ['', null],
    ['go:1', null],
  ])('resolve(%j) -> %j', (id, expected) => expect(graph.resolve(id)).toBe(expected));

  it.each([
    ['GO:7', true],
    ['GO:70', true],
    ['GO:5', false],
    ['GO:50', false],
    ['GO:99', false],
  ])('isObsolete(%j) -> %j', (id, expected) => expect(graph.isObsolete(id)).toBe(expected));

  it.each([
    ['GO:1', 'P'],
    ['GO:50', 'P'],
    ['GO:70', 'F'],
    ['GO:9', 'C'],
    ['GO:99', null],
  ])('aspect(%j) -> %j', (id, expected) => expect(graph.aspect(id)).toBe(expected));

  it.each([
    ['GO:1', []],
    [
      'GO:6',
      [
        { id: 'GO:5', relation: 'is_a' },
        { id: 'GO:2', relation: 'negatively_regulates' },
        { id: 'GO:4', relation: 'positively_regulates' },
      ],
    ],
    ['GO:8', [{ id: 'GO:5', relation: 'is_a' }]],
    [
      'GO:50',
      [
        { id: 'GO:4', relation: 'is_a' },
        { id: 'GO:3', relation: 'regulates' },
      ],
    ],
    ['GO:11', [{ id: 'GO:6', relation: 'part_of' }]],
    ['GO:99', []],
  ])('parents(%j)', (id, expected) => expect(graph.parents(id)).toEqual(expected));

  it('term() follows alt ids and answers null for unknown ids', () => {
    expect(graph.term('GO:70')).toMatchObject({ id: 'GO:7', name: 'obsolete thing', isObsolete: true });
    expect(graph.term('GO:99')).toBeNull();
    expect(graph.size).toBe(11);
  });

  it('parents() returns a copy', () => {
    graph.parents('GO:6').pop();
    expect(graph.parents('GO:6')).toHaveLength(3);
  });
});

describe('GoGraph: closures', () => {
  it.each(
    labelled([
      { id: 'GO:1', expected: [] },
      { id: 'GO:4', expected: ['GO:1', 'GO:2', 'GO:3'] },
      { id: 'GO:4', relations: ['is_a'], expected: ['GO:1', 'GO:2'] },
      { id: 'GO:4', relations: ['part_of'], expected: ['GO:3'] },
      { id: 'GO:6', expected: ['GO:1', 'GO:2', 'GO:3', 'GO:4', 'GO:5'] },
      { id: 'GO:6', relations: ['negatively_regulates'], expected: ['GO:2'] },
      { id: 'GO:6', relations: ['regulates'], expected: [] },
      { id: 'GO:5', relations: ['regulates'], expected: ['GO:3'] },
      { id: 'GO:6', relations: [], expected: [] },
      { id: 'GO:8', expected: ['GO:1', 'GO:2', 'GO:3', 'GO:4', 'GO:5'] },
      { id: 'GO:50', expected: ['GO:1', 'GO:2', 'GO:3', 'GO:4'] },
      { id: 'GO:11', relations: ['part_of'], expected: ['GO:6'] },
      { id: 'GO:11', expected: ['GO:1', 'GO:2', 'GO:3', 'GO:4', 'GO:5', 'GO:6'] },
      { id: 'GO:9', expected: ['GO:10'] },
      { id: 'GO:7', expected: [] },
      { id: 'GO:99', expected: [] },
    ]),
  )('ancestors($id, $via)', ({ id, relations, expected }) =>
    expect(graph.ancestors(id, relations)).toEqual(expected),
  );

  it.each(
    labelled([
      { id: 'GO:1', expected: ['GO:11', 'GO:2', 'GO:3', 'GO:4', 'GO:5', 'GO:6', 'GO:8'] },
      { id: 'GO:1', relations: ['is_a'], expected: ['GO:2', 'GO:3', 'GO:4', 'GO:5', 'GO:6', 'GO:8'] },
      { id: 'GO:3', expected: ['GO:11', 'GO:4', 'GO:5', 'GO:6', 'GO:8'] },
      { id: 'GO:3', relations: ['is_a'], expected: [] },
      { id: 'GO:2', relations: ALL, expected: ['GO:11', 'GO:4', 'GO:5', 'GO:6', 'GO:8'] },
      { id: 'GO:50', expected: ['GO:11', 'GO:6', 'GO:8'] },
      { id: 'GO:10', expected: ['GO:9'] },
      { id: 'GO:70', expected: [] },
      { id: 'GO:99', expected: [] },
    ]),
  )('descendants($id, $via)', ({ id, relations, expected }) =>
    expect(graph.descendants(id, relations)).toEqual(expected),
  );
});

describe('GoGraph on the tiny 2022-07-01 subset', () => {
  const file = path.resolve(__dirname, '../../../../../shared/data/tiny/go-subset.2022-07-01.obo');
  const doc = parseObo(readFileSync(file, 'utf8'));
  const subset = new GoGraph(doc);
  const ROOTS = { P: 'GO:0008150', F: 'GO:0003674', C: 'GO:0005575' } as const;

  it('reaches exactly the root of its own aspect from every live term', () => {
    const wrong = doc.terms
      .filter((t) => !t.isObsolete && t.aspect !== null && t.id !== ROOTS[t.aspect])
      .filter((t) => {
        const roots = subset.ancestors(t.id).filter((id) => Object.values<string>(ROOTS).includes(id));
        return roots.length !== 1 || roots[0] !== ROOTS[t.aspect as 'P' | 'F' | 'C'];
      })
      .map((t) => t.id);
    expect(wrong).toEqual([]);
  });

  it('resolves alt ids and closes over is_a and part_of', () => {
    expect(subset.resolve('GO:0010553')).toBe('GO:0000122');
    expect(subset.aspect('GO:0045816')).toBe('P');
    const ancestors = subset.ancestors('GO:0010553');
    expect(ancestors).toContain('GO:0008150');
    expect(ancestors).not.toContain('GO:0000122');
    expect(subset.descendants('GO:0008150')).toContain('GO:0000122');
  });
});
