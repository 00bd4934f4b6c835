import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ImportRerankerByReferenceRequest, isUuid, notFound } from '@svc/contracts';
import { LightGbmModelError, parseLightGbmModel } from '@svc/domain';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { NewReranker, RerankerRecord, RerankerRepository } from '@svc/persistence';
import { ArtifactStore } from '@svc/platform';
import { checkSourceField, gatewaySourcePolicy } from '../sources/source-checks';
import { invalidBody } from './predictions.service';

/** The files and form fields of a multipart re-ranker import. */
export interface RerankerUpload {
  modelText: string;
  specYaml: string;
  runJson: string;
  fields: Record<string, string | undefined>;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 ? value : null;

/**
 * Re-ranker registry: multipart imports store the booster at `rerankers/<run_id>/model.txt`;
 * imports by reference keep the given URI once the source policy admits it. Both build the row from
 * the same fields (run.json's `feature_schema_sha`, `metrics`, `run_id`, `feature_importance`,
 * `feature_names`), so the two flows give identical rows for the same run.
 */
@Injectable()
export class RerankersService {
  private readonly store: ArtifactStore;

  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    private readonly rerankers: RerankerRepository,
  ) {
    this.store = infra.artifacts;
  }

  async importUpload(upload: RerankerUpload): Promise<RerankerRecord> {
    let run: unknown;
    try {
      run = JSON.parse(upload.runJson);
    } catch {
      throw invalidBody(['run.json is not valid JSON']);
    }
    if (typeof run !== 'object' || run === null || Array.isArray(run))
      throw invalidBody(['run.json must hold an object']);
    try {
      parseLightGbmModel(upload.modelText);
    } catch (error) {
      if (error instanceof LightGbmModelError) throw invalidBody([`model.txt: ${error.message}`]);
      throw error;
    }
    const runObject = run as Record<string, unknown>;
    const runId = this.runId(runObject);
    const row = this.row({
      run: runObject,
      runId,
      specYaml: upload.specYaml,
      fields: upload.fields,
      artifactUri: '',
    });
    const artifactUri = await this.store.put(`rerankers/${runId}/model.txt`, upload.modelText);
    return this.rerankers.save(
      { ...row, artifact_uri: artifactUri, import_kind: 'upload' },
      upload.fields['force'] === 'true',
    );
  }

  async importByReference(body: ImportRerankerByReferenceRequest): Promise<RerankerRecord> {
    // Readers fetch the booster later (the gateway too, on anonymous reads): a refused URI is never stored.
    await checkSourceField('artifact_uri', body.artifact_uri, gatewaySourcePolicy(this.infra));
    const runId = this.runId(body.run);
    const row = this.row({
      run: body.run,
      runId,
      specYaml: body.spec_yaml,
      artifactUri: body.artifact_uri,
      fields: {
        name: body.name ?? undefined,
        dataset_id: body.dataset_id ?? undefined,
        external_source: body.external_source ?? undefined,
        prediction_set_id: body.prediction_set_id ?? undefined,
        evaluation_set_id: body.evaluation_set_id ?? undefined,
      },
    });
    return this.rerankers.save({ ...row, import_kind: 'reference' }, body.force ?? false);
  }

  list() {
    return this.rerankers.list();
  }

  get(id: string) {
    if (!isUuid(id)) throw notFound('Re-ranker');
    return this.rerankers.get(id);
  }

  /** Removes the row; an uploaded booster is removed from the artifact store too. */
  async delete(id: string) {
    if (!isUuid(id)) throw notFound('Re-ranker');
    const row = await this.rerankers.delete(id);
    const artifactDeleted =
      row.import_kind === 'upload' && row.run_id !== null
        ? await this.store.delete(`rerankers/${row.run_id}/model.txt`)
        : false;
    return { id, deleted: true, artifact_deleted: artifactDeleted };
  }

  private runId(run: Record<string, unknown>): string {
    const id = text(run['run_id']) ?? randomUUID();
    if (!/^[\w.-]{1,200}$/.test(id))
      throw invalidBody(['run.run_id may hold only letters, digits, _, . and -']);
    return id;
  }

  private row(input: {
    run: Record<string, unknown>;
    runId: string;
    specYaml: string;
    artifactUri: string;
    fields: Record<string, string | undefined>;
  }): Omit<NewReranker, 'import_kind'> {
    const sha = text(input.run['feature_schema_sha']);
    if (sha === null) throw invalidBody(['run.feature_schema_sha is required']);
    const names = input.run['feature_names'];
    const object = (value: unknown): Record<string, unknown> =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : {};
    return {
      name: text(input.fields['name']) ?? input.runId,
      artifact_uri: input.artifactUri,
      feature_schema_sha: sha,
      feature_names: Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [],
      objective: text(input.run['objective']),
      spec_yaml: input.specYaml,
      run: input.run,
      run_id: input.runId,
      metrics: object(input.run['metrics']),
      feature_importance: object(input.run['feature_importance']),
      dataset_id: text(input.fields['dataset_id']),
      external_source: text(input.fields['external_source']),
      prediction_set_id: text(input.fields['prediction_set_id']),
      evaluation_set_id: text(input.fields['evaluation_set_id']),
    };
  }
}
