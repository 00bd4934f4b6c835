import { DonorAnnotation, GoAspect, TermPrior, termPriorOf } from '@svc/domain';
import { SequencePoolPage } from '@svc/persistence';
import { OntologyView } from './ontology-cache';

/**
 * The pool's proteins as columns of small integers, their annotations propagated on demand, and the
 * priors counted while the pool is read (docs/scaling.md, "Memory").
 */

export const ASPECTS: readonly GoAspect[] = ['F', 'P', 'C'];
export const ASPECT_BIT: Readonly<Record<GoAspect, number>> = { F: 1, P: 2, C: 4 };

/** One term a reference protein carries in an aspect, after propagation over is_a and part_of. */
export interface PoolTerm {
  goTermId: number;
  goId: string;
  /** The protein's own annotation of the term; null when it is only an ancestor of one. */
  direct: DonorAnnotation | null;
  /** An annotation the term was reached from (itself when direct), for the evidence column. */
  via: DonorAnnotation;
}

/** The columns a pool is read into, one page at a time. */
export class PoolColumns {
  readonly accessions: string[] = [];
  readonly canonicals: string[] = [];
  readonly sequenceIds: number[] = [];
  /** Protein i's annotations are rows offsets[i] .. offsets[i + 1] - 1. */
  readonly offsets: number[] = [0];
  readonly goTermIds: number[] = [];
  readonly codes: number[] = [];
  /** Index into `qualifierTable`; 0 is no qualifier. */
  readonly qualifiers: number[] = [];
  readonly codeTable: string[] = [];
  readonly qualifierTable: (string | null)[] = [null];
  readonly termMeta = new Map<number, { goId: string; aspect: GoAspect }>();
  private readonly codeIndex = new Map<string, number>();
  private readonly qualifierIndex = new Map<string | null, number>([[null, 0]]);

  add(protein: SequencePoolPage): void {
    this.accessions.push(protein.accession);
    // Most proteins are canonical: the same string, not a copy.
    this.canonicals.push(
      protein.canonicalAccession === protein.accession ? protein.accession : protein.canonicalAccession,
    );
    this.sequenceIds.push(protein.sequenceId);
    protein.goTermIds.forEach((goTermId, i) => {
      this.goTermIds.push(goTermId);
      if (!this.termMeta.has(goTermId))
        this.termMeta.set(goTermId, { goId: protein.goIds[i]!, aspect: protein.aspects[i]! });
      this.codes.push(intern(this.codeIndex, this.codeTable, protein.evidenceCodes[i]!));
      this.qualifiers.push(intern(this.qualifierIndex, this.qualifierTable, protein.qualifiers[i] ?? null));
    });
    this.offsets.push(this.goTermIds.length);
  }

  annotationsOf(index: number): DonorAnnotation[] {
    const out: DonorAnnotation[] = [];
    for (let row = this.offsets[index]!; row < this.offsets[index + 1]!; row += 1) {
      const goTermId = this.goTermIds[row]!;
      const meta = this.termMeta.get(goTermId)!;
      out.push({
        goTermId,
        goId: meta.goId,
        aspect: meta.aspect,
        qualifier: this.qualifierTable[this.qualifiers[row]!] ?? null,
        evidenceCode: this.codeTable[this.codes[row]!]!,
      });
    }
    return out;
  }
}

function intern<T>(index: Map<T, number>, table: T[], value: T): number {
  let at = index.get(value);
  if (at === undefined) {
    at = table.length;
    table.push(value);
    index.set(value, at);
  }
  return at;
}

/**
 * A protein's annotations propagated over is_a and part_of, per aspect: its own terms first (in
 * annotation order), each followed by the ancestors it first brings; namespace roots (no parent)
 * left out, since they hold for every annotated protein and carry no information.
 */
export function propagateAnnotations(
  ontology: OntologyView,
  annotations: readonly DonorAnnotation[],
): Map<GoAspect, PoolTerm[]> {
  const perAspect = new Map<GoAspect, Map<number, PoolTerm>>();
  for (const annotation of annotations) {
    let carried = perAspect.get(annotation.aspect);
    if (carried === undefined) perAspect.set(annotation.aspect, (carried = new Map<number, PoolTerm>()));
    const own = carried.get(annotation.goTermId);
    if (own === undefined || own.direct === null) {
      carried.set(annotation.goTermId, {
        goTermId: annotation.goTermId,
        goId: annotation.goId,
        direct: annotation,
        via: annotation,
      });
    }
    for (const ancestor of ontology.ancestorsOf(annotation.goTermId)) {
      const info = ontology.termInfo(ancestor);
      if (info === null || info.aspect !== annotation.aspect || carried.has(ancestor)) continue;
      carried.set(ancestor, { goTermId: ancestor, goId: info.goId, direct: null, via: annotation });
    }
  }
  const out = new Map<GoAspect, PoolTerm[]>();
  for (const [aspect, carried] of perAspect) {
    const list = [...carried.values()].filter((t) => ontology.ancestorsOf(t.goTermId).length > 0);
    if (list.length > 0) out.set(aspect, list);
  }
  return out;
}

/** A term the submitter says is known of a query (GO= at upload), or an ancestor it implies. */
export interface SubmittedTerm {
  goTermId: number;
  /** The live term's own id (a submitted alternate id is named by the term it belongs to). */
  goId: string;
  /** Submitted itself, not only implied by a submitted descendant. */
  direct: boolean;
}

/**
 * Submitted GO ids (a query's GO= header tag) in the snapshot's terms, propagated as a reference
 * protein's annotations are (`propagateAnnotations`): per aspect each submitted term and its
 * ancestors over is_a and part_of within its aspect, namespace roots left out. An id that names no
 * live term of the snapshot (unknown, obsolete, or of another release) is returned in `unknown`, for
 * the run to report; an alternate id counts as the term it was merged into.
 */
export function propagateSubmitted(
  ontology: OntologyView,
  goIds: readonly string[],
): { terms: Map<GoAspect, Map<string, SubmittedTerm>>; unknown: string[] } {
  const terms = new Map<GoAspect, Map<string, SubmittedTerm>>();
  const unknown: string[] = [];
  const add = (aspect: GoAspect, term: SubmittedTerm): void => {
    if (ontology.ancestorsOf(term.goTermId).length === 0) return;
    let carried = terms.get(aspect);
    if (carried === undefined) terms.set(aspect, (carried = new Map<string, SubmittedTerm>()));
    const before = carried.get(term.goId);
    if (before === undefined || (term.direct && !before.direct)) carried.set(term.goId, term);
  };
  for (const goId of goIds) {
    const id = ontology.termIdOf(goId);
    const info = id === undefined ? null : ontology.termInfo(id);
    if (id === undefined || info === null) {
      unknown.push(goId);
      continue;
    }
    add(info.aspect, { goTermId: id, goId: info.goId, direct: true });
    for (const ancestor of ontology.ancestorsOf(id)) {
      const up = ontology.termInfo(ancestor);
      if (up !== null && up.aspect === info.aspect)
        add(info.aspect, { goTermId: ancestor, goId: up.goId, direct: false });
    }
  }
  return { terms, unknown };
}

/**
 * The term prior of each aspect, counted while the pool is read: for each protein the terms it carries
 * (`propagateAnnotations`' sets, namespace roots left out) are marked in arrays indexed by go_term id,
 * without building a term object, so 516,000 proteins are counted in seconds.
 */
export class PriorCounter {
  private marks: Int32Array = new Int32Array(1 << 16);
  private directMarks: Int32Array = new Int32Array(1 << 16);
  private readonly counts: Record<GoAspect, Map<number, number>> = {
    F: new Map(),
    P: new Map(),
    C: new Map(),
  };
  private readonly annotated: Record<GoAspect, number> = { F: 0, P: 0, C: 0 };
  private readonly goIds = new Map<number, string>();
  private readonly sameAspect = new Map<number, readonly number[]>();
  private key = 0;

  constructor(private readonly ontology: OntologyView) {}

  /** Counts protein `index` of the columns; answers which aspects it has terms in and its direct terms per aspect. */
  add(columns: PoolColumns, index: number): { bits: number; direct: Record<GoAspect, number> } {
    const keys: Record<GoAspect, number> = { F: ++this.key, P: ++this.key, C: ++this.key };
    const direct: Record<GoAspect, number> = { F: 0, P: 0, C: 0 };
    let bits = 0;
    for (let row = columns.offsets[index]!; row < columns.offsets[index + 1]!; row += 1) {
      const term = columns.goTermIds[row]!;
      const meta = columns.termMeta.get(term)!;
      const aspect = meta.aspect;
      const key = keys[aspect];
      this.ensure(term);
      if (!this.isRoot(term)) {
        if (this.directMarks[term] !== key) {
          this.directMarks[term] = key;
          direct[aspect] += 1;
        }
        if (this.mark(term, key, aspect, meta.goId)) bits |= ASPECT_BIT[aspect];
      }
      for (const ancestor of this.ancestorsInAspect(term, aspect)) {
        this.ensure(ancestor);
        if (
          !this.isRoot(ancestor) &&
          this.mark(ancestor, key, aspect, this.ontology.termInfo(ancestor)!.goId)
        )
          bits |= ASPECT_BIT[aspect];
      }
    }
    for (const aspect of ASPECTS) if ((bits & ASPECT_BIT[aspect]) !== 0) this.annotated[aspect] += 1;
    return { bits, direct };
  }

  priors(): { priors: Record<GoAspect, TermPrior>; goTermIds: Map<string, number> } {
    const priors = {} as Record<GoAspect, TermPrior>;
    const goTermIds = new Map<string, number>();
    for (const aspect of ASPECTS) {
      const byGoId = new Map<string, number>();
      for (const [term, count] of this.counts[aspect]) {
        const goId = this.goIds.get(term)!;
        byGoId.set(goId, count);
        goTermIds.set(goId, term);
      }
      priors[aspect] = termPriorOf(byGoId, this.annotated[aspect]);
    }
    return { priors, goTermIds };
  }

  /** Marks a term for the current (protein, aspect); true when it was not marked yet. */
  private mark(term: number, key: number, aspect: GoAspect, goId: string): boolean {
    if (this.marks[term] === key) return false;
    this.marks[term] = key;
    const counts = this.counts[aspect];
    counts.set(term, (counts.get(term) ?? 0) + 1);
    if (!this.goIds.has(term)) this.goIds.set(term, goId);
    return true;
  }

  private isRoot(term: number): boolean {
    return this.ontology.ancestorsOf(term).length === 0;
  }

  /** Ancestors in the term's own aspect (propagation never crosses aspects). */
  private ancestorsInAspect(term: number, aspect: GoAspect): readonly number[] {
    let list = this.sameAspect.get(term);
    if (list === undefined) {
      list = this.ontology.ancestorsOf(term).filter((a) => this.ontology.termInfo(a)?.aspect === aspect);
      this.sameAspect.set(term, list);
    }
    return list;
  }

  private ensure(term: number): void {
    if (term < this.marks.length) return;
    let size = this.marks.length;
    while (size <= term) size *= 2;
    const grow = (from: Int32Array): Int32Array => {
      const to = new Int32Array(size);
      to.set(from);
      return to;
    };
    this.marks = grow(this.marks);
    this.directMarks = grow(this.directMarks);
  }
}

/** Propagated term sets kept per worker for the proteins searches hit most (they repeat across queries). */
