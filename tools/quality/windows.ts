// Temporal windows of the human data beside the repository (../shared/data), built the way the
// service builds an evaluation: experimental annotations only, NK/LK/PK from computeHoldoutDelta,
// IA from the t0 annotations, known terms on PK. Gene-level carry-over is removed from NK.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  type CafaAnnotation,
  CafaOntology,
  computeHoldoutDelta,
  geneCarryOver,
  DONOR_EVIDENCE_CODES,
  EXPERIMENTAL_EVIDENCE_CODES,
  type GoAspect,
  GoGraph,
  type GeneAnnotation,
  type HoldoutCategory,
  informationAccretion,
  parseCafaOboRecords,
  parseFasta,
  parseObo,
  type TermPrior,
  termPrior,
} from '@svc/domain';

export const ASPECTS: readonly GoAspect[] = ['F', 'P', 'C'];
export const CATEGORIES: readonly HoldoutCategory[] = ['NK', 'LK', 'PK'];
export const NAMESPACE_OF: Record<GoAspect, string> = {
  F: 'molecular_function',
  P: 'biological_process',
  C: 'cellular_component',
};
const ROOTS: ReadonlySet<string> = new Set(['GO:0003674', 'GO:0008150', 'GO:0005575']);

/** Donor evidence: the service's `donor_evidence: experimental` (experimental and HT codes). */
export const DONOR_EVIDENCE: ReadonlySet<string> = new Set(DONOR_EVIDENCE_CODES);

export interface WindowSpec {
  name: string;
  obo: string;
  t0: string;
  t1: string;
}

export const WINDOWS: Record<'older' | 'A', WindowSpec> = {
  older: {
    name: 'older (t0 2020-09-23 -> t1 2022-09-12, GO 2020-09-10)',
    obo: 'go/go-basic.godb-3.12.1.2020-09-10.obo.gz',
    t0: 'human/human_go.orgHsEgDb-3.12.0.gene2go-2020-09-23.tsv.gz',
    t1: 'human/human_go.orgHsEgDb-3.16.0.gene2go-2022-09-12.tsv.gz',
  },
  A: {
    name: 'A (t0 2022-09-12 -> t1 2024-09-20, GO 2022-07-01)',
    obo: 'go/go-basic.godb-3.16.0.2022-07-01.obo.gz',
    t0: 'human/human_go.orgHsEgDb-3.16.0.gene2go-2022-09-12.tsv.gz',
    t1: 'human/human_go.orgHsEgDb-3.20.0.gene2go-2024-09-20.tsv.gz',
  },
};
export const SEQUENCES = 'human/human_swissprot_seqs.metastudent-2014-01.fasta.gz';

export interface QualityWindow {
  spec: WindowSpec;
  graph: GoGraph;
  ontology: CafaOntology;
  sequences: Map<string, string>;
  /** Donor proteins: propagated t0 terms (roots left out) per aspect, for proteins with a sequence. */
  references: Map<string, Record<GoAspect, string[]>>;
  priors: Record<GoAspect, TermPrior>;
  /** A term's ancestors in its own aspect, roots left out (as the prediction worker's pool gives them). */
  ancestorsOf: (goId: string) => readonly string[];
  truth: Record<HoldoutCategory, CafaAnnotation[]>;
  known: CafaAnnotation[];
  /** Per category, the aspects each target is scored in. */
  targets: Record<HoldoutCategory, Map<string, Set<GoAspect>>>;
  ia: Map<string, number>;
  carryOver: number;
}

function readText(path: string): string {
  const bytes = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

type Row = GeneAnnotation;

function readRows(path: string): Row[] {
  const rows: Row[] = [];
  for (const line of readText(path).split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('uniprot_acc')) continue;
    const [protein, gene, goId, , evidence] = line.split('\t');
    if (!protein || !goId || !evidence) continue;
    rows.push({ protein, gene: gene ?? '', goId, evidence: evidence.trim() });
  }
  return rows;
}

export function readSequences(dataDir: string): Map<string, string> {
  const sequences = new Map<string, string>();
  for (const record of parseFasta(readText(join(dataDir, SEQUENCES))).records) {
    sequences.set(record.identifier, record.sequence);
  }
  return sequences;
}

/**
 * A window: its GO release, its donors (propagated t0 terms of the proteins with a sequence; only
 * experimental annotations unless `donors` is `all`, as the service's `donor_evidence`), its targets
 * per category with their truth (always from experimental annotations), and its IA.
 */
export function loadWindow(
  dataDir: string,
  spec: WindowSpec,
  sequences = readSequences(dataDir),
  donors: 'experimental' | 'all' = 'experimental',
): QualityWindow {
  const oboText = readText(join(dataDir, spec.obo));
  const graph = new GoGraph(parseObo(oboText));
  const ontology = new CafaOntology(parseCafaOboRecords(oboText));
  const t0 = readRows(join(dataDir, spec.t0));
  const t1 = readRows(join(dataDir, spec.t1));

  // Donors: experimental t0 annotations (or all of them), propagated within the aspect.
  const closure = new Map<string, string[]>();
  const closureOf = (goId: string): string[] => {
    let ids = closure.get(goId);
    if (ids === undefined) {
      const primary = graph.resolve(goId);
      const aspect = primary === null || graph.isObsolete(primary) ? null : graph.aspect(primary);
      ids =
        primary === null || aspect === null
          ? []
          : [primary, ...graph.ancestors(primary)].filter(
              (id) => !ROOTS.has(id) && graph.aspect(id) === aspect,
            );
      closure.set(goId, ids);
    }
    return ids;
  };
  const donorSets = new Map<string, Record<GoAspect, Set<string>>>();
  for (const row of t0) {
    if (donors === 'experimental' && !DONOR_EVIDENCE.has(row.evidence)) continue;
    if (!sequences.has(row.protein) || row.evidence === 'ND') continue;
    const ids = closureOf(row.goId);
    if (ids.length === 0) continue;
    let sets = donorSets.get(row.protein);
    if (sets === undefined) donorSets.set(row.protein, (sets = { F: new Set(), P: new Set(), C: new Set() }));
    for (const id of ids) sets[graph.aspect(id)!].add(id);
  }
  const references = new Map<string, Record<GoAspect, string[]>>();
  for (const [protein, sets] of donorSets) {
    references.set(protein, { F: [...sets.F], P: [...sets.P], C: [...sets.C] });
  }
  const priors = {} as Record<GoAspect, TermPrior>;
  for (const aspect of ASPECTS) {
    priors[aspect] = termPrior(
      [...references.values()].map((terms) => terms[aspect]).filter((t) => t.length > 0),
    );
  }

  const delta = computeHoldoutDelta({ old: t0, new: t1, ontology: graph });
  // Gene-level carry-over (the service's rule, geneCarryOver): an NK accession whose gene had
  // experimental terms at t0 under another accession is not new knowledge; it is left out.
  const carried = geneCarryOver({
    nkProteins: new Set(delta.groundTruth.NK.map((t) => t.protein)),
    old: t0,
    new: t1,
  });

  const truth = {} as Record<HoldoutCategory, CafaAnnotation[]>;
  const targets = {} as Record<HoldoutCategory, Map<string, Set<GoAspect>>>;
  const excluded = new Set<string>();
  for (const category of CATEGORIES) {
    truth[category] = [];
    targets[category] = new Map();
    for (const row of delta.groundTruth[category]) {
      if (!sequences.has(row.protein)) continue;
      if (category === 'NK' && carried.has(row.protein)) {
        excluded.add(row.protein);
        continue;
      }
      truth[category].push({ protein: row.protein, term: row.goId });
      let aspects = targets[category].get(row.protein);
      if (aspects === undefined) targets[category].set(row.protein, (aspects = new Set()));
      aspects.add(row.aspect);
    }
  }
  const known = delta.known.map((row) => ({ protein: row.protein, term: row.goId }));
  const ia = informationAccretion(
    ontology,
    t0
      .filter((row) => EXPERIMENTAL_EVIDENCE_CODES.includes(row.evidence))
      .map((row) => ({
        protein: row.protein,
        term: row.goId,
      })),
  );
  const ancestors = new Map<string, readonly string[]>();
  const ancestorsOf = (goId: string): readonly string[] => {
    let list = ancestors.get(goId);
    if (list === undefined) {
      const aspect = graph.aspect(goId);
      list = graph.ancestors(goId).filter((id) => !ROOTS.has(id) && graph.aspect(id) === aspect);
      ancestors.set(goId, list);
    }
    return list;
  };
  return {
    spec,
    graph,
    ontology,
    sequences,
    references,
    priors,
    ancestorsOf,
    truth,
    known,
    targets,
    ia,
    carryOver: excluded.size,
  };
}
