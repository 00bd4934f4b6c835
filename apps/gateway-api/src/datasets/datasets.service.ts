import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  EXPORT_RESEARCH_DATASET,
  ExportResearchDatasetPayload,
  ImportDatasetByReferenceRequest,
  ListDatasetsQuery,
  QueuedJobView,
} from '@svc/contracts';
import { listScope, planDatasetPairs, DatasetPlanError, Viewer } from '@svc/domain';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { DatasetRecord, DatasetRepository, ReferenceCheckRepository } from '@svc/persistence';
import { Principal, readBytes, SourceError } from '@svc/platform';
import { newOwnershipFor, requireReadable } from '../common/ownership';
import { JobsService } from '../jobs/jobs.service';
import { gatewaySourcePolicy } from '../sources/source-checks';
import { invalidBody } from '../predictions/predictions.service';

/** Research datasets: exports queued on svc.training, imports of files already in the store, reads. */
@Injectable()
export class DatasetsService {
  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    private readonly jobs: JobsService,
    private readonly datasets: DatasetRepository,
    private readonly references: ReferenceCheckRepository,
  ) {}

  /** Checks what can be checked before queueing, so a doomed export is refused with a 4xx instead. */
  async export(body: ExportResearchDatasetPayload, principal: Principal): Promise<QueuedJobView> {
    try {
      planDatasetPairs(body.train_versions, body.test_versions ?? []);
    } catch (error) {
      if (error instanceof DatasetPlanError)
        throw new DomainError('validation_error', error.message, {}, [
          { path: 'test_versions', message: error.message },
        ]);
      throw error;
    }
    await this.conflictIfTaken(body.output_name);
    return this.jobs.dispatch(EXPORT_RESEARCH_DATASET, body, principal);
  }

  /** Registers files already in the store; the manifest is read once to compute its sha256. */
  async importByReference(
    body: ImportDatasetByReferenceRequest,
    principal: Principal | undefined,
  ): Promise<DatasetRecord> {
    await this.conflictIfTaken(body.name);
    const config = await this.references.find('embedding_config', body.embedding_config_id);
    if (config === null)
      throw invalidBody([`embedding_config_id ${body.embedding_config_id} does not exist`]);
    let manifest: Buffer;
    try {
      manifest = await readBytes(body.manifest_uri, gatewaySourcePolicy(this.infra));
    } catch (error) {
      if (error instanceof SourceError)
        throw new DomainError(
          'validation_error',
          `manifest_uri could not be read: ${error.message}`,
          { code: error.code },
          [{ path: 'manifest_uri', message: error.message }],
        );
      throw error;
    }
    const manifestSha = createHash('sha256').update(manifest).digest('hex');
    const parsed = parseManifest(manifest);
    const ownership = newOwnershipFor({
      principal,
      retentionDays: this.infra.config.security.guestResultRetentionDays,
    });
    return this.datasets.create({
      name: body.name,
      operation: 'import_by_reference',
      job_id: null,
      embedding_config_id: body.embedding_config_id,
      ontology_snapshot_id: body.ontology_snapshot_id ?? null,
      annotation_source: body.annotation_source,
      k: body.k,
      key_prefix: null,
      storage_backend: storageOf(body.train_uri),
      train_uri: body.train_uri,
      eval_uri: body.eval_uri ?? null,
      manifest_uri: body.manifest_uri,
      manifest_sha: manifestSha,
      schema_sha: body.schema_sha,
      schema_sha_v2: body.schema_sha_v2 ?? null,
      n_train_rows: body.n_train_rows,
      n_eval_rows: body.n_eval_rows,
      train_snapshot_pairs: parsed.trainPairs,
      eval_snapshot_pair: parsed.evalPair,
      producer_version: parsed.producerVersion,
      producer_git_sha: parsed.producerGitSha,
      meta: body.meta ?? {},
      owner_user_id: ownership.owner_user_id,
      visibility: ownership.visibility,
    });
  }

  /** The caller's own datasets (all of them for staff). */
  list(query: ListDatasetsQuery, viewer: Viewer): Promise<DatasetRecord[]> {
    return this.datasets.list({
      scope: listScope(viewer, query.mine ?? false),
      limit: query.limit ?? 50,
      after: query.after,
    });
  }

  async get(idOrName: string, viewer: Viewer): Promise<DatasetRecord> {
    return requireReadable(viewer, await this.datasets.find(idOrName), 'Dataset');
  }

  private async conflictIfTaken(name: string): Promise<void> {
    if (await this.datasets.existsByName(name))
      throw new DomainError('conflict', `a dataset named '${name}' already exists`);
  }
}

function storageOf(uri: string): string {
  return uri.startsWith('s3://') ? 's3' : 'local';
}

/**
 * The snapshot pairs and producer of a manifest written by export_research_dataset. Manifests from
 * elsewhere need not follow that layout: whatever is missing stays empty, the sha still binds the row
 * to the exact bytes.
 */
function parseManifest(bytes: Buffer): {
  trainPairs: string[];
  evalPair: string | null;
  producerVersion: string | null;
  producerGitSha: string | null;
} {
  let manifest: unknown;
  try {
    manifest = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { trainPairs: [], evalPair: null, producerVersion: null, producerGitSha: null };
  }
  const object = (v: unknown): Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  const root = object(manifest);
  const pairs = object(root['train'])['snapshot_pairs'];
  return {
    trainPairs: Array.isArray(pairs)
      ? pairs.map((p) => text(object(p)['pair'])).filter((p): p is string => p !== null)
      : [],
    evalPair: text(object(object(root['eval'])['snapshot_pair'])['pair']),
    producerVersion: text(object(root['producer'])['version']),
    producerGitSha: text(object(root['producer'])['git_sha']),
  };
}
