import { getHeapStatistics } from 'node:v8';
import { join } from 'node:path';
import { GoAspect, TermPrior } from '@svc/domain';
import { ensureDiamondDatabaseFrom } from '@svc/inference';
import { JobError } from '@svc/jobs';
import { Repositories, ReferenceProtein } from '@svc/persistence';
import { ontologyView } from './ontology-cache';
import {
  ASPECT_BIT,
  ASPECTS,
  PoolColumns,
  type PoolTerm,
  PriorCounter,
  propagateAnnotations,
  propagateSubmitted,
} from './pool-columns';

export type { PoolTerm, SubmittedTerm } from './pool-columns';

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
  /** GO ids a submitter says are known of a query, in the pool's ontology (`propagateSubmitted`). */
  submittedTerms(goIds: readonly string[]): ReturnType<typeof propagateSubmitted>;
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
  checkFits(
    `the reference pool (${size.proteins} proteins, ${size.annotations} donor annotations)`,
    needed,
    memoryFraction,
    heap,
  );
}

/**
 * Refuses, before it is built, an association index (docs/prediction.md, "Association") larger
 * than the worker may still hold beside its pool: `reference_too_large`, as for the pool.
 */
export function checkAssociationFits(
  size: { proteins: number; postings: number; bytes: number },
  memoryFraction: number,
  heap: { limit: number; used: number } = heapNow(),
): void {
  checkFits(
    `the association index of the reference pool (${size.proteins} proteins, ${size.postings} term postings)`,
    size.bytes,
    memoryFraction,
    heap,
  );
}

function checkFits(
  what: string,
  needed: number,
  memoryFraction: number,
  heap: { limit: number; used: number },
): void {
  const budget = Math.max(0, heap.limit - heap.used) * memoryFraction;
  if (needed <= budget) return;
  const mb = (bytes: number): string => `${Math.ceil(bytes / (1024 * 1024))} MB`;
  throw new JobError(
    'reference_too_large',
    `${what} needs about ${mb(needed)} of the prediction worker's heap; it may give it ${mb(budget)} ` +
      `(${memoryFraction} of the ${mb(heap.limit - heap.used)} free of its ${mb(heap.limit)} heap): ` +
      'run the prediction worker with a larger heap (NODE_OPTIONS=--max-old-space-size) or a larger ' +
      'SVC_POOL_MEMORY_FRACTION',
  );
}

function heapNow(): { limit: number; used: number } {
  const stats = getHeapStatistics();
  return { limit: stats.heap_size_limit, used: stats.used_heap_size };
}

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
    submittedTerms: (goIds) => propagateSubmitted(ontology, goIds),
    database,
  };
}
