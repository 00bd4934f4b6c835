import { join } from 'node:path';
import { DonorAnnotation } from '@svc/domain';
import { normalizeRows, searchBackend, VectorIndex } from '@svc/inference';
import { Repositories, ReferencePoolRepository, ReferenceProtein } from '@svc/persistence';
import { PoolDiskCache } from './pool-disk-cache';

/** A searchable reference pool for one (config, annotation set, aspect, donor rule, backend). */
export interface ReferenceIndex {
  readonly proteins: ReferenceProtein[];
  readonly annotations: DonorAnnotation[][];
  readonly dimensions: number;
  readonly index: VectorIndex;
}

export interface IndexKey {
  embeddingConfigId: string;
  annotationSetId: string;
  aspect: 'F' | 'P' | 'C' | null;
  donorEvidence: 'all' | 'experimental';
  backend: string;
}

const MAX_ENTRIES = 6;

/**
 * Process cache of reference indexes. Batches of one prediction job (and later jobs on the same
 * data) reuse the loaded matrix; the key carries a content version, so new embeddings or a reloaded
 * annotation set build a fresh index instead of serving a stale one.
 */
export class ReferenceIndexCache {
  private readonly entries = new Map<string, Promise<ReferenceIndex>>();

  private readonly disk: PoolDiskCache;

  constructor(
    private readonly repos: Repositories,
    cacheDir: string,
  ) {
    this.disk = new PoolDiskCache(cacheDir);
  }

  private readonly frequencies = new Map<string, Promise<Map<number, number>>>();

  /** The data version of a (config, annotation set) pool: read once per batch, shared by its indexes. */
  version(embeddingConfigId: string, annotationSetId: string): Promise<string> {
    return this.repos.referencePools.poolVersion(embeddingConfigId, annotationSetId);
  }

  /** Proteins per term in the annotation set, kept while the set's data version stays the same. */
  termFrequencies(annotationSetId: string, version: string): Promise<Map<number, number>> {
    const id = `${annotationSetId}|${version}`;
    let entry = this.frequencies.get(id);
    if (entry === undefined) {
      entry = this.repos.referencePools.termFrequencies(annotationSetId);
      this.frequencies.set(id, entry);
      entry.catch(() => this.frequencies.delete(id));
      while (this.frequencies.size > MAX_ENTRIES)
        this.frequencies.delete(this.frequencies.keys().next().value!);
    }
    return entry;
  }

  async get(key: IndexKey, version: string): Promise<ReferenceIndex> {
    const pools = this.repos.referencePools;
    const id = [
      key.embeddingConfigId,
      key.annotationSetId,
      key.aspect ?? '*',
      key.donorEvidence,
      key.backend,
      version,
    ].join('|');
    let entry = this.entries.get(id);
    if (entry === undefined) {
      entry = this.build(pools, key, id);
      this.entries.set(id, entry);
      entry.catch(() => this.entries.delete(id));
      while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    } else {
      // Re-insert to keep the most recently used entries.
      this.entries.delete(id);
      this.entries.set(id, entry);
    }
    return entry;
  }

  private async build(pools: ReferencePoolRepository, key: IndexKey, id: string): Promise<ReferenceIndex> {
    // The backend is not part of the stored pool: one file serves both search backends.
    const diskKey = id
      .split('|')
      .filter((_, i) => i !== 4)
      .join('|');
    let pool = await this.disk.read(diskKey);
    if (pool === null) {
      pool = await pools.loadPool(key);
      await this.disk.write(diskKey, pool);
    }
    const data = normalizeRows(pool.vectors, pool.dimensions);
    const index = searchBackend(key.backend).build({
      rows: pool.proteins.length,
      dimensions: pool.dimensions,
      data,
    });
    return { proteins: pool.proteins, annotations: pool.annotations, dimensions: pool.dimensions, index };
  }
}

let shared: ReferenceIndexCache | null = null;

/** The process-wide cache; pools are also kept on disk under `<artifacts_dir>/cache/reference-pools`. */
export function referenceIndexCache(repos: Repositories, artifactsDir: string): ReferenceIndexCache {
  shared ??= new ReferenceIndexCache(repos, join(artifactsDir, 'cache', 'reference-pools'));
  return shared;
}
