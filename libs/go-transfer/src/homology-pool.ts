import { join } from 'node:path';
import { DonorAnnotation, GoAspect, TermPrior, termPrior } from '@svc/domain';
import { ensureDiamondDatabase } from '@svc/inference';
import { Repositories, ReferenceProtein } from '@svc/persistence';
import { ontologyView } from './ontology-cache';

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
 * The homology reference pool of one (annotation set, donor rule, snapshot): proteins and their
 * propagated terms per aspect, the term prior of each aspect, and the DIAMOND database of their
 * sequences (built once, kept on disk under `<artifacts_dir>/cache/diamond`, named by content).
 */
export interface HomologyPool {
  readonly proteins: ReferenceProtein[];
  readonly byAccession: ReadonlyMap<string, number>;
  /** Per aspect: protein index -> propagated terms (namespace roots left out), by GO id. */
  readonly terms: Record<GoAspect, ReadonlyMap<number, ReadonlyMap<string, PoolTerm>>>;
  /** Per aspect: protein index -> number of its own (direct) annotations' terms. */
  readonly directCount: Record<GoAspect, ReadonlyMap<number, number>>;
  /** Per aspect: the same terms as GO ids, for the blend. */
  readonly termIds: Record<GoAspect, ReadonlyMap<string, readonly string[]>>;
  readonly priors: Record<GoAspect, TermPrior>;
  /** GO id -> go_term id of the snapshot, for prior-only rows. */
  readonly goTermIdOf: ReadonlyMap<string, number>;
  readonly database: string;
}

/** DIAMOND's name of a pool protein: its index, so no accession text reaches the aligner's files. */
export const referenceId = (index: number): string => `r${index}`;

export interface HomologyPoolKey {
  annotationSetId: string;
  ontologySnapshotId: string;
  donorEvidence: 'all' | 'experimental';
}

const ASPECTS: readonly GoAspect[] = ['F', 'P', 'C'];
const MAX_ENTRIES = 4;
const entries = new Map<string, Promise<HomologyPool>>();

/** The pool for a key at the data's current version, from the process cache when it is there. */
export async function homologyPool(
  repos: Repositories,
  artifactsDir: string,
  binary: string,
  key: HomologyPoolKey,
): Promise<HomologyPool> {
  const version = await repos.referencePools.sequencePoolVersion(key.annotationSetId);
  const id = [key.annotationSetId, key.ontologySnapshotId, key.donorEvidence, version].join('|');
  let entry = entries.get(id);
  if (entry === undefined) {
    entry = build(repos, artifactsDir, binary, key);
    entries.set(id, entry);
    entry.catch(() => entries.delete(id));
    while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  } else {
    entries.delete(id);
    entries.set(id, entry);
  }
  return entry;
}

async function build(
  repos: Repositories,
  artifactsDir: string,
  binary: string,
  key: HomologyPoolKey,
): Promise<HomologyPool> {
  const pool = await repos.referencePools.loadSequencePool(key);
  const ontology = await ontologyView(repos, key.ontologySnapshotId);
  const terms = { F: new Map(), P: new Map(), C: new Map() } as Record<
    GoAspect,
    Map<number, Map<string, PoolTerm>>
  >;
  const directCount = { F: new Map(), P: new Map(), C: new Map() } as Record<GoAspect, Map<number, number>>;
  const termIds = { F: new Map(), P: new Map(), C: new Map() } as Record<GoAspect, Map<string, string[]>>;
  const goTermIdOf = new Map<string, number>();
  pool.annotations.forEach((annotations, index) => {
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
    for (const [aspect, carried] of perAspect) {
      // Namespace roots (no parent) hold for every annotated protein and carry no information.
      const list = [...carried.values()].filter((t) => ontology.ancestorsOf(t.goTermId).length > 0);
      if (list.length === 0) continue;
      terms[aspect].set(index, new Map(list.map((t) => [t.goId, t])));
      directCount[aspect].set(index, list.filter((t) => t.direct !== null).length);
      termIds[aspect].set(
        pool.proteins[index]!.accession,
        list.map((t) => t.goId),
      );
      for (const t of list) goTermIdOf.set(t.goId, t.goTermId);
    }
  });
  const priors = {} as Record<GoAspect, TermPrior>;
  for (const aspect of ASPECTS) priors[aspect] = termPrior(termIds[aspect].values());
  const database = await ensureDiamondDatabase({
    binary,
    dir: join(artifactsDir, 'cache', 'diamond'),
    references: pool.proteins
      .map((_, i) => ({ id: referenceId(i), sequence: pool.sequences[i] ?? '' }))
      .filter((r) => r.sequence.length > 0),
  });
  return {
    proteins: pool.proteins,
    byAccession: new Map(pool.proteins.map((p, i) => [p.accession, i])),
    terms,
    directCount,
    termIds,
    priors,
    goTermIdOf,
    database,
  };
}
