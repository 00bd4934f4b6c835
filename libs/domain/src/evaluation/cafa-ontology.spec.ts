import { CafaOntology, parseCafaOboRecords, parseCafaOntology } from './cafa-ontology';
import { OntologyWalker } from './cafa-propagation';

// Every OBO rule of EVALUATOR.md §2.1 in one file; comments name the rule each term exercises.
const QUIRKS = `format-version: 1.2
default-namespace: mf
ontology: test

[Term]
id: Q:1
namespace: mf

[Term]
id: Q:2
namespace: mf
alt_id: Q:20
is_a: Q:1 ! plain edge

[Term]
id: Q:3
namespace: mf
is_a: Q:1 {source="x"} ! the qualifier breaks the id: edge lost, Q:3 is an orphan
relationship: regulates Q:2
relationship: has_part Q:2

[Term]
id: Q:4
namespace: mf
is_a: Q:5 ! obsolete parent: dropped
is_a: Q:20 ! parent written as an alt id: not resolved, dropped
relationship: part_of Q:2 ! kept
is_a: Q:9 ! cross-namespace: dropped

[Term]
id: Q:5
namespace: mf
alt_id: Q:50
is_obsolete: false

[Term]
id: Q:6
namespace: external

[Typedef]
id: part_of
name: part of
namespace: mf

[Term]
id: Q:7
namespace: bp
alt_id: Q:2

[Term]
id: Q:8
name: has: a colon
namespace: bp
alt_id: Q:80
alt_id: Q:81
is_a: Q:7

[Term]
id: Q:80
namespace: bp
is_a: Q:7

[Term]
id: Q:9
namespace: bp
`;

describe('parseCafaOboRecords / CafaOntology (reference OBO rules)', () => {
  const ontology = parseCafaOntology(QUIRKS);
  const id = (term: number): string => ontology.termIds[term] ?? '?';
  const parentsOf = (termId: string): string[] => {
    const term = ontology.indexOfCanonical(termId) ?? -1;
    const out: string[] = [];
    for (let e = ontology.parentOffsets[term] ?? 0; e < (ontology.parentOffsets[term + 1] ?? 0); e++) {
      out.push(id(ontology.parentIndices[e] ?? -1));
    }
    return out.sort();
  };

  it('keeps records with a namespace other than external and no is_obsolete line; a Typedef is a record', () => {
    expect([...ontology.termIds].sort()).toEqual([
      'Q:1',
      'Q:2',
      'Q:3',
      'Q:4',
      'Q:7',
      'Q:8',
      'Q:80',
      'Q:9',
      'part_of',
    ]);
    expect(ontology.namespaces).toEqual(['mf', 'bp']);
  });

  it.each<[string, string[]]>([
    ['Q:2', ['Q:1']],
    ['Q:3', []],
    ['Q:4', ['Q:2']],
    ['Q:8', ['Q:7']],
  ])(
    '%s has parents %j (is_a before "!", part_of only, same namespace, live canonical ids)',
    (term, parents) => {
      expect(parentsOf(term)).toEqual(parents);
    },
  );

  it('orphans are roots plus terms whose parents were all dropped', () => {
    const orphans = ontology.termIds.filter((_, t) => !ontology.hasParent(t)).sort();
    expect(orphans).toEqual(['Q:1', 'Q:3', 'Q:7', 'Q:9', 'part_of']);
  });

  it('orders parents before children', () => {
    for (let t = 0; t < ontology.size; t++) {
      for (let e = ontology.parentOffsets[t] ?? 0; e < (ontology.parentOffsets[t + 1] ?? 0); e++) {
        expect(ontology.parentIndices[e]).toBeLessThan(t);
      }
    }
  });

  it.each<[string, string | null, string[]]>([
    ['Q:2', 'mf', ['Q:2']],
    ['Q:20', 'mf', ['Q:2']],
    ['Q:50', null, []], // alt id of an obsolete record
    ['Q:5', null, []],
    ['Q:6', null, []],
    ['Q:81', 'bp', ['Q:8']],
    ['Q:80', 'bp', ['Q:80']], // an id wins over the same string used as an alt id
  ])('resolves %s to namespace %s terms %j', (term, ns, terms) => {
    const ref = ontology.resolve(term);
    expect(ref === undefined ? null : ontology.namespaces[ref.namespace]).toBe(ns);
    expect((ref?.terms ?? []).map(id)).toEqual(terms);
  });

  it('an id and an alt id in two namespaces: the first namespace in OBO order wins', () => {
    // Q:2 is an mf id and a bp alt id; ground truth resolves it to mf, the TOI per namespace.
    expect(ontology.resolve('Q:2')?.namespace).toBe(0);
    expect(ontology.resolveInNamespace(1, 'Q:2').map(id)).toEqual(['Q:7']);
  });

  it('keeps values containing ": " whole and replaces a repeated id in place', () => {
    const records = parseCafaOboRecords(
      'id: A\nnamespace: x: y\n\nid: B\nnamespace: x\nid: A\nnamespace: z\n',
    );
    expect(records.map((r) => [r.id, r.namespace])).toEqual([
      ['A', 'z'],
      ['B', 'x'],
    ]);
  });

  it('refuses a cycle', () => {
    const cyclic = 'id: A\nnamespace: x\nis_a: B\nid: B\nnamespace: x\nis_a: A\nid: C\nnamespace: x\n';
    expect(() => parseCafaOntology(cyclic)).toThrow(expect.objectContaining({ code: 'ontology_cycle' }));
  });

  it('ancestor closure follows is_a and part_of within the namespace', () => {
    const walker = new OntologyWalker(ontology);
    const closure = walker.ancestorClosure([ontology.indexOfCanonical('Q:4') ?? -1]);
    expect([...closure].map(id).sort()).toEqual(['Q:1', 'Q:2', 'Q:4']);
  });

  it('builds from structured records as well (the worker path)', () => {
    const built = new CafaOntology([
      { id: 'C', namespace: 'x', isObsolete: false, altIds: [], parents: ['P'] },
      { id: 'P', namespace: 'x', isObsolete: false, altIds: ['P2'], parents: [] },
    ]);
    expect(built.termIds).toEqual(['P', 'C']);
    expect(built.resolve('P2')?.terms).toEqual([0]);
  });
});
