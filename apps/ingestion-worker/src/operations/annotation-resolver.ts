import { missingReference } from '@svc/jobs';
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

  stats(): Record<string, unknown> {
    return {
      unknown_go_ids: this.unknownIds,
      obsolete_go_ids: this.obsoleteIds,
      alt_ids_resolved: this.altIdsResolved,
      unknown_go_id_samples: this.unknownSamples,
    };
  }
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
