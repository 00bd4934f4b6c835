import { getHeapStatistics } from 'node:v8';
import { join } from 'node:path';
import { DonorAnnotation, GoAspect, TermPrior, termPriorOf } from '@svc/domain';
import { ensureDiamondDatabaseFrom } from '@svc/inference';
import { JobError } from '@svc/jobs';
import { Repositories, ReferenceProtein, SequencePoolPage } from '@svc/persistence';
import { ontologyView, OntologyView } from './ontology-cache';

/** One term a reference protein carries in an aspect, after propagation over is_a and part_of. */
export interface PoolTerm {
  goTermId: number;
  goId: string;
  /** The protein's own annotation of the term; null when it is only an ancestor of one. */
  direct: DonorAnnotation | null;
  /** An annotation the term was reached from (itself when direct), for the evidence column. */
  via: DonorAnnotation;
}

/**
 * The homology reference pool of one (annotation set, donor rule, snapshot): its proteins, their
 * own donor annotations, the term prior of each aspect, and the DIAMOND database of their sequences
 * (built once, kept on disk under `<artifacts_dir>/cache/diamond`, named by content).
 *
 * The pool holds what a Swiss-Prot-sized reference needs and no more: the annotations as columns of
 * small integers, the sequences only in the DIAMOND database, and a protein's propagated terms
 * worked out when a search hits it (docs/scaling.md, "Memory").
 */
export interface HomologyPool {
  readonly size: number;
  protein(index: number): ReferenceProtein | undefined;
  /** Whether the protein carries a term of the aspect below its namespace root. */
  hasTerms(index: number, aspect: GoAspect): boolean;
  /** The protein's propagated terms of an aspect (namespace roots left out), by GO id, in a fixed order. */
  terms(index: number, aspect: GoAspect): ReadonlyMap<string, PoolTerm> | undefined;
  /** How many of those terms are the protein's own (direct) annotations. */
  directCount(index: number, aspect: GoAspect): number;
  readonly priors: Record<GoAspect, TermPrior>;
  /** GO id -> go_term id of the snapshot, for prior-only rows. */
  goTermIdOf(goId: string): number | undefined;
  /** A term's ancestors in its own aspect, namespace roots left out, by GO id (the prior's terms). */
  ancestorsOf(goId: string): readonly string[];
  readonly database: string;
}

/** DIAMOND's name of a pool protein: its index, so no accession text reaches the aligner's files. */
export const referenceId = (index: number): string => `r${index}`;

export interface HomologyPoolKey {
  annotationSetId: string;
  ontologySnapshotId: string;
  donorEvidence: 'all' | 'experimental';
}

/** Where the pool is built and how much of the heap it may take. */
export interface HomologyPoolSettings {
  artifactsDir: string;
  binary: string;
  /** Share of the heap's free space one pool may take (`SVC_POOL_MEMORY_FRACTION`). */
  memoryFraction: number;
}

const ASPECTS: readonly GoAspect[] = ['F', 'P', 'C'];
const ASPECT_BIT: Readonly<Record<GoAspect, number>> = { F: 1, P: 2, C: 4 };
const MAX_ENTRIES = 4;
const entries = new Map<string, Promise<HomologyPool>>();

/**
 * An upper bound of the heap a pool takes: per protein (accession strings, ids, offsets, flags), per
 * donor annotation (three integer columns) and a fixed part (priors, term table, one page of rows in
 * flight). It gives about 350 MB for the Swiss-Prot pool, which measured 216 MB (docs/scaling.md).
 */
export const POOL_BYTES = { perProtein: 200, perAnnotation: 40, fixed: 64 * 1024 * 1024 } as const;

/** The pool for a key at the data's current version, from the process cache when it is there. */
export async function homologyPool(
  repos: Repositories,
  settings: HomologyPoolSettings,
  key: HomologyPoolKey,
): Promise<HomologyPool> {
  const version = await repos.referencePools.sequencePoolVersion(key.annotationSetId);
  const id = [key.annotationSetId, key.ontologySnapshotId, key.donorEvidence, version].join('|');
  let entry = entries.get(id);
  if (entry === undefined) {
    entry = build(repos, settings, key);
    entries.set(id, entry);
    entry.catch(() => entries.delete(id));
    while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  } else {
    entries.delete(id);
    entries.set(id, entry);
  }
  return entry;
}

/**
 * Refuses, before anything is loaded, a pool larger than the worker may hold: the job fails with
 * `reference_too_large` and says what would make it fit, instead of the process running out of heap
 * and taking every job in it along.
 */
export function checkPoolFits(
  size: { proteins: number; annotations: number },
  memoryFraction: number,
  heap: { limit: number; used: number } = heapNow(),
): void {
  const needed =
    POOL_BYTES.fixed + size.proteins * POOL_BYTES.perProtein + size.annotations * POOL_BYTES.perAnnotation;
  const budget = Math.max(0, heap.limit - heap.used) * memoryFraction;
  if (needed <= budget) return;
  const mb = (bytes: number): string => `${Math.ceil(bytes / (1024 * 1024))} MB`;
  throw new JobError(
    'reference_too_large',
    `the reference pool (${size.proteins} proteins, ${size.annotations} donor annotations) needs about ` +
      `${mb(needed)} of the prediction worker's heap; it may give a pool ${mb(budget)} ` +
      `(${memoryFraction} of the ${mb(heap.limit - heap.used)} free of its ${mb(heap.limit)} heap): ` +
      'run the prediction worker with a larger heap (NODE_OPTIONS=--max-old-space-size) or a larger ' +
      'SVC_POOL_MEMORY_FRACTION',
  );
}

function heapNow(): { limit: number; used: number } {
  const stats = getHeapStatistics();
  return { limit: stats.heap_size_limit, used: stats.used_heap_size };
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
const TERM_CACHE = 10_000;

async function build(
  repos: Repositories,
  settings: HomologyPoolSettings,
  key: HomologyPoolKey,
): Promise<HomologyPool> {
  checkPoolFits(await repos.referencePools.sequencePoolSize(key.annotationSetId), settings.memoryFraction);
  const ontology = await ontologyView(repos, key.ontologySnapshotId);
  const columns = new PoolColumns();
  const aspectsOf: number[] = [];
  const directCounts: Record<GoAspect, number[]> = { F: [], P: [], C: [] };
  const counter = new PriorCounter(ontology);
  const database = await ensureDiamondDatabaseFrom({
    binary: settings.binary,
    dir: join(settings.artifactsDir, 'cache', 'diamond'),
    write: async (add) => {
      let sequences = 0;
      await repos.referencePools.streamSequencePool(key, async (page) => {
        for (const protein of page) {
          const index = columns.accessions.length;
          columns.add(protein);
          const carried = counter.add(columns, index);
          for (const aspect of ASPECTS) directCounts[aspect].push(carried.direct[aspect]);
          aspectsOf.push(carried.bits);
          if (protein.sequence.length === 0) continue;
          sequences += 1;
          await add({ id: referenceId(index), sequence: protein.sequence });
        }
      });
      // Nothing to align against: say which rule left the pool empty rather than let DIAMOND refuse an
      // empty file.
      if (sequences === 0)
        throw new JobError(
          'empty_reference_pool',
          `no protein of annotation set ${key.annotationSetId} with a sequence has an annotation that ` +
            (key.donorEvidence === 'experimental'
              ? 'donor_evidence "experimental" lets donate (experimental evidence codes): predict with donor_evidence "all" to transfer its other annotations'
              : 'may donate (every one is a NOT annotation or has no aspect)'),
        );
    },
  });
  const { priors, goTermIds } = counter.priors();
  const cache = new Map<number, Map<GoAspect, Map<string, PoolTerm>>>();
  const propagatedOf = (index: number): Map<GoAspect, Map<string, PoolTerm>> => {
    let hit = cache.get(index);
    if (hit !== undefined) {
      cache.delete(index);
      cache.set(index, hit);
      return hit;
    }
    hit = new Map(
      [...propagateAnnotations(ontology, columns.annotationsOf(index))].map(([aspect, list]) => [
        aspect,
        new Map(list.map((t) => [t.goId, t])),
      ]),
    );
    cache.set(index, hit);
    if (cache.size > TERM_CACHE) cache.delete(cache.keys().next().value!);
    return hit;
  };
  const ancestorGoIds = new Map<string, readonly string[]>();
  const ancestorsOf = (goId: string): readonly string[] => {
    let list = ancestorGoIds.get(goId);
    if (list !== undefined) return list;
    const id = goTermIds.get(goId);
    const aspect = id === undefined ? undefined : ontology.termInfo(id)?.aspect;
    list =
      id === undefined
        ? []
        : ontology
            .ancestorsOf(id)
            .filter((a) => ontology.termInfo(a)?.aspect === aspect && ontology.ancestorsOf(a).length > 0)
            .map((a) => ontology.termInfo(a)!.goId)
            .filter((ancestor) => goTermIds.has(ancestor));
    ancestorGoIds.set(goId, list);
    return list;
  };
  const size = columns.accessions.length;
  const inPool = (index: number): boolean => Number.isInteger(index) && index >= 0 && index < size;
  return {
    size,
    protein: (index) =>
      inPool(index)
        ? {
            accession: columns.accessions[index]!,
            canonicalAccession: columns.canonicals[index]!,
            sequenceId: columns.sequenceIds[index]!,
          }
        : undefined,
    hasTerms: (index, aspect) => inPool(index) && (aspectsOf[index]! & ASPECT_BIT[aspect]) !== 0,
    terms: (index, aspect) => {
      if (!inPool(index) || (aspectsOf[index]! & ASPECT_BIT[aspect]) === 0) return undefined;
      return propagatedOf(index).get(aspect);
    },
    directCount: (index, aspect) => (inPool(index) ? directCounts[aspect][index]! : 0),
    priors,
    goTermIdOf: (goId) => goTermIds.get(goId),
    ancestorsOf,
    database,
  };
}
