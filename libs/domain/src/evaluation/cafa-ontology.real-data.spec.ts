import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { GoGraph, parseObo } from '../obo';
import { CafaOntology, parseCafaOntology } from './cafa-ontology';

// The shared data folder sits next to the repository checkout, here and in CI.
const GO = path.resolve(
  __dirname,
  '../../../../../shared/data/go/go-basic.godb-3.20.0.built-2024-09-23.obo.gz',
);

/**
 * The evaluator reads OBO with the reference's own rules; the worker builds its ontology from the
 * tables our `parseObo` filled. On a real go-basic release both must give the same live terms and
 * is_a/part_of edges, or the service would score against a different graph than the reference.
 */
describe('reference OBO rules on go-basic (2024-09-23)', () => {
  const text = gunzipSync(readFileSync(GO)).toString('utf8');
  const reference = parseCafaOntology(text);
  const graph = new GoGraph(parseObo(text));
  const fromTables = new CafaOntology(
    parseObo(text).terms.map((term) => ({
      id: term.id,
      namespace: term.namespace,
      isObsolete: term.isObsolete,
      altIds: term.altIds,
      parents: graph
        .parents(term.id)
        .flatMap((p) => (p.relation === 'is_a' || p.relation === 'part_of' ? [p.id] : [])),
    })),
  );

  const edges = (ontology: CafaOntology): string[] => {
    const found: string[] = [];
    for (let t = 0; t < ontology.size; t++) {
      for (let e = ontology.parentOffsets[t] ?? 0; e < (ontology.parentOffsets[t + 1] ?? 0); e++) {
        found.push(`${ontology.termIds[t]} ${ontology.termIds[ontology.parentIndices[e] ?? -1]}`);
      }
    }
    return found.sort();
  };

  it('has three namespaces whose only orphans are the roots', () => {
    expect(reference.namespaces).toEqual(['biological_process', 'molecular_function', 'cellular_component']);
    expect(reference.termIds.filter((_, t) => !reference.hasParent(t)).sort()).toEqual([
      'GO:0003674',
      'GO:0005575',
      'GO:0008150',
    ]);
  });

  it('matches the ontology rebuilt from parseObo + GoGraph (the worker path)', () => {
    expect([...fromTables.termIds].sort()).toEqual([...reference.termIds].sort());
    expect(edges(fromTables)).toEqual(edges(reference));
  });
});
