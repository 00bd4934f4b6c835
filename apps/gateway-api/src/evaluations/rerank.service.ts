import { Inject, Injectable, StreamableFile } from '@nestjs/common';
import { DomainError, isUuid, notFound } from '@svc/contracts';
import {
  GoGraph,
  LightGbmModel,
  LightGbmModelError,
  pairMetrics,
  propagatedTruth,
  Viewer,
} from '@svc/domain';
import { loadBooster, scoreRows } from '@svc/inference';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { ArtifactNotFoundError, SourceError } from '@svc/platform';
import {
  EvaluationRepository,
  EvaluationSetRecord,
  OntologyRepository,
  PredictionExportReader,
  PredictionSetRecord,
  PredictionSetRepository,
  PREDICTIONS_TSV_COLUMNS,
  RerankerRecord,
  RerankerRepository,
} from '@svc/persistence';
import { rowScore } from '@svc/use-cases';
import { requireReadable } from '../common/ownership';
import { streamTsv } from '../predictions/tsv';
import { gatewaySourcePolicy } from '../sources/source-checks';

/** training-data.tsv: the first 31 prediction columns with `go_name go_aspect` replaced by `aspect label`. */
export const TRAINING_TSV_COLUMNS = [
  'protein_accession',
  'go_id',
  'aspect',
  'label',
  ...PREDICTIONS_TSV_COLUMNS.slice(4, 31),
];

/**
 * Re-ranker views of a prediction set: rows re-scored by a booster (`rerank.tsv`), pair-level Fmax
 * and AUC-PR of those scores against an evaluation set's ground truth, and the labelled training
 * table. A row's label is 1 when its term is in the protein's new ground truth (any category) or is
 * an is_a/part_of ancestor of one, as the evaluator's propagation would count it.
 */
@Injectable()
export class RerankService {
  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    private readonly sets: PredictionSetRepository,
    private readonly evaluations: EvaluationRepository,
    private readonly rerankers: RerankerRepository,
    private readonly predictionExports: PredictionExportReader,
    private readonly ontologies: OntologyRepository,
  ) {}

  /**
   * The set's rows re-scored by the re-ranker, in the order of its scores per protein's rows as
   * stored. A re-ranker trained on another feature schema is never an error (the specification):
   * the rows then keep their KNN order and their own score, and `fallback` says why, as the
   * prediction path's `reranker.schema_mismatch` warning does.
   */
  async rerankTsv(
    predictionSetId: string,
    rerankerId: string | undefined,
    viewer: Viewer,
  ): Promise<{ file: StreamableFile; fallback: string | null }> {
    const set = await this.set(predictionSetId, viewer);
    const reranker = await this.reranker(set, rerankerId, { allowMismatch: true });
    const mismatch = reranker.feature_schema_sha !== set.feature_schema_sha;
    const model = mismatch ? null : await this.booster(reranker);
    const rows = this.sets.streamRows(set.id, {});
    async function* chunks() {
      for await (const chunk of rows) {
        const scores = model === null ? chunk.map(rowScore) : scoreRows(model, chunk);
        yield chunk.map((r, i) => [
          r['protein_accession'],
          r['go_id'],
          r['go_aspect'],
          scores[i],
          r['distance'],
          r['ref_protein_accession'],
        ]);
      }
    }
    const file = streamTsv(
      ['protein_accession', 'go_id', 'go_aspect', 'reranker_score', 'distance', 'ref_protein_accession'],
      chunks(),
      `rerank-${set.id}.tsv`,
    );
    const fallback = mismatch
      ? `reranker.schema_mismatch: re-ranker ${reranker.id} was trained on feature schema ${reranker.feature_schema_sha}, the prediction set has ${set.feature_schema_sha}; KNN distance order kept (reranker_score is the row's own score)`
      : null;
    return { file, fallback };
  }

  async rerankerMetrics(
    predictionSetId: string,
    rerankerId: string | undefined,
    evaluationSetId: string | undefined,
    viewer: Viewer,
  ) {
    const set = await this.set(predictionSetId, viewer);
    const reranker = await this.reranker(set, rerankerId);
    const evaluation = await this.evaluationSet(set, evaluationSetId);
    const model = await this.booster(reranker);
    const rows = await this.sets.allRows(set.id);
    const isTrue = await this.labeller(evaluation);
    const deltaRows = rows.filter((r) => isTrue.covers(String(r['protein_accession'])));
    const scores = scoreRows(model, deltaRows);
    const labels = deltaRows.map((r) => isTrue.label(String(r['protein_accession']), String(r['go_id'])));
    return {
      prediction_set_id: set.id,
      reranker_model_id: reranker.id,
      evaluation_set_id: evaluation.id,
      level: 'pair',
      ...pairMetrics(scores, labels),
    };
  }

  async trainingTsv(
    predictionSetId: string,
    evaluationSetId: string | undefined,
    viewer: Viewer,
  ): Promise<StreamableFile> {
    const set = await this.set(predictionSetId, viewer);
    const evaluation = await this.evaluationSet(set, evaluationSetId);
    const isTrue = await this.labeller(evaluation);
    const rows = this.predictionExports.trainingRows(set.id);
    async function* chunks() {
      for await (const chunk of rows) {
        for (const row of chunk) row[3] = isTrue.label(row[0]!, row[1]!) ? '1' : '0';
        yield chunk;
      }
    }
    return streamTsv(TRAINING_TSV_COLUMNS, chunks(), `training-data-${set.id}.tsv`);
  }

  private async set(id: string, viewer: Viewer): Promise<PredictionSetRecord> {
    return requireReadable(viewer, isUuid(id) ? await this.sets.find(id) : null, 'Prediction set');
  }

  private async reranker(
    set: PredictionSetRecord,
    id: string | undefined,
    options: { allowMismatch?: boolean } = {},
  ): Promise<RerankerRecord> {
    const wanted = id ?? set.reranker_model_id;
    if (wanted === null || wanted === undefined)
      throw new DomainError(
        'validation_error',
        'name a reranker_id: this prediction set has no bound re-ranker',
        {},
        [{ path: 'reranker_id', message: 'reranker_id is required for this prediction set' }],
      );
    const reranker = await this.rerankers.get(wanted);
    if (reranker.feature_schema_sha !== set.feature_schema_sha && options.allowMismatch !== true)
      throw new DomainError(
        'conflict',
        `the re-ranker was trained on feature schema ${reranker.feature_schema_sha}, the prediction set has ${set.feature_schema_sha}`,
      );
    return reranker;
  }

  /**
   * The re-ranker's booster. A model file that is missing, refused or not a LightGBM model is a
   * 409 about that re-ranker (an import by reference is trusted, not re-read); the answer names
   * neither the file's location nor its contents, which the operator finds in the log.
   */
  private async booster(reranker: RerankerRecord): Promise<LightGbmModel> {
    try {
      return await loadBooster(reranker.artifact_uri, gatewaySourcePolicy(this.infra));
    } catch (error) {
      const reason = unusableModelReason(error);
      if (reason === null) throw error;
      this.infra.logger.warn('re-ranker model unusable', {
        reranker_model_id: reranker.id,
        error: (error as Error).message,
      });
      throw new DomainError('conflict', `re-ranker ${reranker.id} cannot score: its model file ${reason}`);
    }
  }

  /** The named evaluation set, else the newest one whose old (t0) set is the prediction set's reference. */
  private async evaluationSet(
    set: PredictionSetRecord,
    id: string | undefined,
  ): Promise<EvaluationSetRecord> {
    if (id !== undefined) return this.evaluations.getSet(id);
    const newest = await this.evaluations.newestSetFrom(set.annotation_set_id);
    if (newest === null) throw notFound('Evaluation set');
    return this.evaluations.getSet(newest);
  }

  private async labeller(evaluation: EvaluationSetRecord) {
    const graph = new GoGraph(await this.ontologies.oboDocument(evaluation.ontology_snapshot_id));
    const terms: { protein: string; goId: string }[] = [];
    for (const category of ['NK', 'LK', 'PK'] as const)
      for (const row of await this.evaluations.groundTruth(evaluation.id, category))
        terms.push({ protein: row.protein_accession, goId: row.go_id });
    return propagatedTruth(terms, graph);
  }
}

function unusableModelReason(error: unknown): string | null {
  if (error instanceof LightGbmModelError)
    return `is not a valid LightGBM model${error.line !== null ? ` (line ${error.line})` : ''}`;
  if (error instanceof SourceError || error instanceof ArtifactNotFoundError) return 'cannot be read';
  return null;
}
