import { JobError, missingReference } from '@svc/jobs';
import type { AnnotationRow, Repositories, SnapshotView, TermRef } from '@svc/persistence';

const MAX_REPORTED = 100;

/**
 * The snapshot an annotation load resolves its GO ids against, and a resolver over its terms; the
 * job fails with `ontology_snapshot_not_found` when the snapshot is gone.
 */
export async function resolverForSnapshot(
  repos: Repositories,
  snapshotId: string,
): Promise<{ snapshot: SnapshotView; resolver: AnnotationResolver }> {
  const snapshot = await repos.ontologies.findById(snapshotId);
  if (snapshot === null) throw missingReference('ontology_snapshot', snapshotId);
  return { snapshot, resolver: new AnnotationResolver(await repos.ontologies.termIndex(snapshot.id)) };
}

/** Resolves GO ids through a snapshot (alt ids to canonical) and keeps the load's counters. */
export class AnnotationResolver {
  unknownIds = 0;
  obsoleteIds = 0;
  altIdsResolved = 0;
  readonly unknownSamples: string[] = [];

  constructor(private readonly terms: Map<string, TermRef>) {}

  /** The canonical live term, or null (counted) when the id is unknown or obsolete in the snapshot. */
  resolve(goId: string): TermRef | null {
    const term = this.terms.get(goId);
    if (term === undefined) {
      this.unknownIds += 1;
      if (this.unknownSamples.length < MAX_REPORTED && !this.unknownSamples.includes(goId))
        this.unknownSamples.push(goId);
      return null;
    }
    if (term.is_obsolete) {
      this.obsoleteIds += 1;
      return null;
    }
    if (term.go_id !== goId) this.altIdsResolved += 1;
    return term;
  }

  /** Records whose GO id the snapshot does not have live (unknown or obsolete). */
  get unresolved(): number {
    return this.unknownIds + this.obsoleteIds;
  }

  stats(records: number): Record<string, unknown> {
    return {
      unknown_go_ids: this.unknownIds,
      obsolete_go_ids: this.obsoleteIds,
      alt_ids_resolved: this.altIdsResolved,
      unresolved_share: records === 0 ? 0 : Number((this.unresolved / records).toFixed(4)),
      unknown_go_id_samples: this.unknownSamples,
    };
  }

  /**
   * Fails the load with `ontology_mismatch` when more than `maxShare` of its records name GO ids the
   * snapshot does not have live: the file was made against another release, and loading it would
   * silently drop that share of its annotations. The message gives the counts and the release the
   * file names (`hint`), and nothing of the file's own text but the checked hint.
   */
  checkAgainst(snapshot: SnapshotView, records: number, maxShare: number, hint: string | null): void {
    if (records === 0 || this.unresolved / records <= maxShare) return;
    const percent = (share: number): string => `${(100 * share).toFixed(1)} %`;
    const direction =
      this.obsoleteIds > this.unknownIds
        ? 'mostly obsolete ids: the file is older than this release'
        : 'mostly unknown ids: the file is newer than this release, or names another ontology';
    throw new JobError(
      'ontology_mismatch',
      `${this.unresolved} of ${records} records (${percent(this.unresolved / records)}) name GO ids that ` +
        `ontology snapshot ${snapshot.obo_version} (${snapshot.term_count} terms) does not have live ` +
        `(${this.unknownIds} unknown, ${this.obsoleteIds} obsolete; first unknown: ` +
        `${this.unknownSamples.slice(0, 3).join(', ') || 'none'}); the load tolerates ${percent(maxShare)} ` +
        `(max_unresolved_ratio). ${direction}. ${hint ?? 'The file does not say which GO release it was made with'}: ` +
        'load the GO release it was made with and load the file against it, or raise max_unresolved_ratio to keep the rest',
    );
  }
}

/**
 * Which GO release a GAF was made with, from its header (`!go-version`, else `!date-generated`) or,
 * failing that, the date of its newest annotation; only values of a checked shape are repeated.
 */
export function releaseHint(header: Record<string, string>, newestAnnotation: string | null): string | null {
  const value = (key: string): string | undefined =>
    Object.entries(header).find(([k]) => k.toLowerCase() === key)?.[1];
  const goVersion = value('go-version');
  if (goVersion !== undefined && /^[\w:/.-]{1,160}$/.test(goVersion))
    return `The file names GO release ${goVersion}`;
  const generated = /^(\d{4}-\d\d-\d\d)/.exec(value('date-generated') ?? '')?.[1];
  if (generated !== undefined) return `The file was generated on ${generated}`;
  if (newestAnnotation !== null) return `The file's newest annotation is dated ${newestAnnotation}`;
  return null;
}

/** Collects malformed lines (the first hundred with their line numbers) and counts the rest. */
export class LineProblems {
  count = 0;
  readonly samples: { line: number; message: string }[] = [];

  add(line: number, message: string): void {
    this.count += 1;
    if (this.samples.length < MAX_REPORTED) this.samples.push({ line, message });
  }
}

export type { AnnotationRow };
