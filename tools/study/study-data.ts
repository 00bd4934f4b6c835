// Temporal holdouts for the nearest-neighbour GO transfer studies: reference proteins with their
// t0 terms, targets with the terms they gained by t1, all propagated over one GO release.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { EXPERIMENTAL_EVIDENCE_CODES, GoAspect, GoGraph, parseFasta, parseObo } from '@svc/domain';

export const ASPECTS: readonly GoAspect[] = ['F', 'P', 'C'];

/** The evidence codes of the mini holdout's annotation files (CAFA's experimental set). */
export const EXPERIMENTAL_CODES: ReadonlySet<string> = new Set([...EXPERIMENTAL_EVIDENCE_CODES, 'TAS', 'IC']);

/** Namespace roots: every annotated protein has them, so they are neither predicted nor scored. */
const ROOTS: ReadonlySet<string> = new Set(['GO:0003674', 'GO:0008150', 'GO:0005575']);

export type TermsByAspect = Record<GoAspect, Set<string>>;

export interface StudyProtein {
  accession: string;
  sequence: string;
}

export interface Holdout {
  name: string;
  proteins: StudyProtein[];
  /** Reference proteins (indices into `proteins`) annotated in each aspect, with their propagated t0 terms. */
  references: Record<GoAspect, { protein: number; terms: Set<string> }[]>;
  /** Targets scored in each aspect, with the propagated terms they gained by t1 (never empty). */
  targets: Record<GoAspect, { protein: number; truth: Set<string> }[]>;
}

function readText(path: string): string {
  const bytes = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** uniprot_acc -> go ids of the experimental rows of a `uniprot_acc entrez_gene go_id aspect evidence` TSV. */
function readAnnotations(path: string): Map<string, Set<string>> {
  const byProtein = new Map<string, Set<string>>();
  for (const line of readText(path).split('\n')) {
    if (line.startsWith('#') || line.startsWith('uniprot_acc') || line.trim() === '') continue;
    const [accession, , goId, , evidence] = line.split('\t');
    if (accession === undefined || goId === undefined || !EXPERIMENTAL_CODES.has(evidence?.trim() ?? ''))
      continue;
    let terms = byProtein.get(accession);
    if (terms === undefined) byProtein.set(accession, (terms = new Set()));
    terms.add(goId);
  }
  return byProtein;
}

/** Propagation over is_a + part_of; alt ids resolved, obsolete and unknown ids and the roots dropped. */
class Propagator {
  private readonly closure = new Map<string, string[]>();

  constructor(private readonly graph: GoGraph) {}

  propagate(terms: Iterable<string> | undefined): TermsByAspect {
    const out: TermsByAspect = { F: new Set(), P: new Set(), C: new Set() };
    for (const term of terms ?? []) {
      for (const id of this.closureOf(term)) out[this.graph.aspect(id)!].add(id);
    }
    return out;
  }

  private closureOf(term: string): string[] {
    let ids = this.closure.get(term);
    if (ids === undefined) {
      const primary = this.graph.resolve(term);
      ids =
        primary === null || this.graph.isObsolete(primary)
          ? []
          : [primary, ...this.graph.ancestors(primary)].filter(
              (id) => !ROOTS.has(id) && this.graph.aspect(id) !== null,
            );
      this.closure.set(term, ids);
    }
    return ids;
  }
}

/**
 * References: proteins annotated at t0 (per aspect, those with terms in it). Targets, per aspect:
 * candidates without t0 terms in that aspect that gained some by t1 (CAFA's no-knowledge and
 * limited-knowledge rule), scored on the new terms. The target itself is never its own reference.
 */
function buildHoldout(input: {
  name: string;
  proteins: StudyProtein[];
  isReference: (accession: string) => boolean;
  isCandidateTarget: (accession: string) => boolean;
  t0: Map<string, Set<string>>;
  t1: Map<string, Set<string>>;
  graph: GoGraph;
}): Holdout {
  const propagator = new Propagator(input.graph);
  const references: Holdout['references'] = { F: [], P: [], C: [] };
  const targets: Holdout['targets'] = { F: [], P: [], C: [] };
  input.proteins.forEach((protein, index) => {
    const before = propagator.propagate(input.t0.get(protein.accession));
    const reference = input.isReference(protein.accession);
    const candidate = input.isCandidateTarget(protein.accession);
    const after = candidate ? propagator.propagate(input.t1.get(protein.accession)) : null;
    for (const aspect of ASPECTS) {
      if (reference && before[aspect].size > 0)
        references[aspect].push({ protein: index, terms: before[aspect] });
      if (after !== null && before[aspect].size === 0 && after[aspect].size > 0) {
        targets[aspect].push({ protein: index, truth: after[aspect] });
      }
    }
  });
  return { name: input.name, proteins: input.proteins, references, targets };
}

function readSequences(path: string): Map<string, string> {
  const sequences = new Map<string, string>();
  for (const record of parseFasta(readText(path)).records) sequences.set(record.identifier, record.sequence);
  return sequences;
}

/** The mini holdout: 200 train proteins as references, 60 NK + 40 LK targets. */
export function loadMiniHoldout(dir: string): Holdout {
  const sequences = readSequences(`${dir}/sequences.fasta`);
  const roles = new Map<string, string>();
  for (const line of readText(`${dir}/proteins.tsv`).split('\n').slice(1)) {
    const [accession, role] = line.split('\t');
    if (accession && role) roles.set(accession, role.trim());
  }
  const proteins = [...roles.keys()].map((accession) => ({
    accession,
    sequence: sequences.get(accession) ?? '',
  }));
  return buildHoldout({
    name: 'mini',
    proteins,
    isReference: (accession) => roles.get(accession) === 'train',
    isCandidateTarget: (accession) => roles.get(accession) !== 'train',
    t0: readAnnotations(`${dir}/annotations.t0.gene2go-2022-09-12.tsv`),
    t1: readAnnotations(`${dir}/annotations.t1.gene2go-2024-09-20.tsv`),
    graph: new GoGraph(parseObo(readText(`${dir}/go-subset.2022-07-01.obo`))),
  });
}

/**
 * The whole human set: every Swiss-Prot sequence with t0 terms is a reference, every protein a
 * candidate target. About 17 times more targets than the mini holdout.
 */
export function loadHumanHoldout(dataDir: string): Holdout {
  const sequences = readSequences(`${dataDir}/human/human_swissprot_seqs.metastudent-2014-01.fasta.gz`);
  const proteins = [...sequences].map(([accession, sequence]) => ({ accession, sequence }));
  return buildHoldout({
    name: 'human',
    proteins,
    isReference: () => true,
    isCandidateTarget: () => true,
    t0: readAnnotations(`${dataDir}/human/human_go.orgHsEgDb-3.16.0.gene2go-2022-09-12.tsv.gz`),
    t1: readAnnotations(`${dataDir}/human/human_go.orgHsEgDb-3.20.0.gene2go-2024-09-20.tsv.gz`),
    graph: new GoGraph(parseObo(readText(`${dataDir}/go/go-basic.godb-3.16.0.2022-07-01.obo.gz`))),
  });
}
