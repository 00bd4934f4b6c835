import { Inject, Injectable, StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';
import { zipSync } from 'fflate';
import {
  DomainError,
  GENERATE_EVALUATION_SET,
  GenerateEvaluationSetPayload,
  isUuid,
  notFound,
  RUN_CAFA_EVALUATION,
  RunEvaluationRequest,
} from '@svc/contracts';
import {
  benchmarkMatrix,
  CafaEvaluationError,
  formatFastaRecord,
  listScope,
  parseBenchmarkConfig,
  searchMethodLabel,
  Viewer,
} from '@svc/domain';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import {
  EvaluationRepository,
  EvaluationResultRow,
  GroundTruthCategory,
  OntologyRepository,
  PredictionSetRepository,
  ScoringConfigRepository,
  ReferenceCheckRepository,
} from '@svc/persistence';
import { evaluatePredictionSet } from '@svc/use-cases';
import { ArtifactStore, Principal, readBenchmarkConfigFile, readText } from '@svc/platform';
import { requireModifiable, requirePredictionSet, requireReadable } from '../common/ownership';
import { JobsService } from '../jobs/jobs.service';
import { streamTsv } from '../predictions/tsv';
import { showSourcesOfEach } from '../sources/public-sources';
import { gatewaySourcePolicy, readingSource } from '../sources/source-checks';

/** The files a result read (paths or URIs on the workers): staff see them, others their names. */
const RESULT_SOURCES = ['ia_source', 'toi_source'] as const;

const METRIC_COLUMNS = [
  'f_micro_w',
  'fmax_w',
  'f_micro',
  'precision_w',
  'recall_w',
  'coverage_w',
  'fmax',
  'precision',
  'recall',
  'threshold',
  'coverage',
  'n',
  'smin',
  'tau',
  // Appended so that readers addressing the older columns by position keep working.
  'auprc_w',
  'auprc',
];

/** Evaluation sets, CAFA results and their downloads, on-demand metrics, and the benchmark matrix. */
@Injectable()
export class EvaluationsService {
  private readonly store: ArtifactStore;

  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    private readonly jobs: JobsService,
    private readonly evaluations: EvaluationRepository,
    private readonly predictionSets: PredictionSetRepository,
    private readonly scoringConfigs: ScoringConfigRepository,
    private readonly ontologies: OntologyRepository,
    private readonly references: ReferenceCheckRepository,
  ) {
    this.store = infra.artifacts;
  }

  /** The dispatch checks both annotation sets (404) and that they share a snapshot (422). */
  async generate(payload: GenerateEvaluationSetPayload, principal: Principal | undefined) {
    return this.jobs.dispatch(GENERATE_EVALUATION_SET, payload, principal);
  }

  /** Each set's `result_count` counts the results the viewer's list of them shows. */
  list(viewer: Viewer) {
    return this.evaluations.listSets(listScope(viewer));
  }

  get(id: string) {
    return this.evaluations.getSet(this.uuid(id, 'Evaluation set'));
  }

  /** The set with the names of what it was made from (the detail route). */
  summary(id: string, viewer: Viewer) {
    return this.evaluations.summary(this.uuid(id, 'Evaluation set'), listScope(viewer));
  }

  /** The set and its results go first; then their stored artifacts. */
  async delete(id: string) {
    const result = await this.evaluations.deleteSet(this.uuid(id, 'Evaluation set'));
    let removed = 0;
    for (const key of result.artifact_keys) if (await this.store.delete(key)) removed += 1;
    return { deleted: true, results_deleted: result.results_deleted, artifacts_deleted: removed };
  }

  async groundTruthTsv(id: string, category: GroundTruthCategory): Promise<StreamableFile> {
    await this.get(id);
    const rows = await this.evaluations.groundTruth(id, category);
    const name = category === 'KNOWN' ? 'known-terms' : `ground-truth-${category}`;
    return streamTsv(
      null,
      (async function* () {
        yield rows.map((r) => [r.protein_accession, r.go_id]);
      })(),
      `${name}.tsv`,
    );
  }

  async deltaFasta(id: string, category: string | undefined): Promise<StreamableFile> {
    await this.get(id);
    const wanted = (category ?? 'all').toUpperCase();
    if (!['NK', 'LK', 'PK', 'ALL'].includes(wanted))
      throw new DomainError('validation_error', 'category must be nk, lk, pk or all', {}, [
        { path: 'category', message: 'category must be nk, lk, pk or all' },
      ]);
    const proteins = await this.evaluations.deltaProteins(
      id,
      wanted === 'ALL' ? ['NK', 'LK', 'PK'] : [wanted],
    );
    const text = proteins
      .map((p) =>
        formatFastaRecord(
          `${p.accession} ${p.entry_name ?? ''} OS=${p.organism ?? ''} OX=${p.taxonomy_id ?? ''} (${p.category})`,
          p.sequence,
        ),
      )
      .join('');
    return new StreamableFile(Buffer.from(text), {
      type: 'text/x-fasta; charset=utf-8',
      disposition: `attachment; filename="delta-proteins-${wanted.toLowerCase()}.fasta"`,
    });
  }

  async run(id: string, body: RunEvaluationRequest, principal: Principal | undefined) {
    const set = await this.get(id);
    // The dispatch checks the prediction set and the scoring config (404 when missing or unreadable).
    return this.jobs.dispatch(RUN_CAFA_EVALUATION, { ...body, evaluation_set_id: set.id }, principal);
  }

  /** The files a result read are named as the viewer may see them (`showSources`). */
  async results(id: string, viewer: Viewer, mine: boolean) {
    await this.get(id);
    const rows = await this.evaluations.listResults(id, listScope(viewer, mine));
    return showSourcesOfEach(rows, RESULT_SOURCES, viewer, this.infra.config);
  }

  private async result(id: string, resultId: string, viewer: Viewer): Promise<EvaluationResultRow> {
    await this.get(id);
    const result = isUuid(resultId) ? await this.evaluations.findResult(id, resultId) : null;
    return requireReadable(viewer, result, 'Evaluation result');
  }

  /** One row per (category, aspect) with every persisted metric. */
  async metricsTsv(id: string, resultId: string, viewer: Viewer): Promise<StreamableFile> {
    const result = await this.result(id, resultId, viewer);
    const metrics = result['metrics'];
    const rows: unknown[][] = [];
    for (const [category, aspects] of Object.entries(metrics))
      for (const [aspect, values] of Object.entries(aspects))
        rows.push([category, aspect, ...METRIC_COLUMNS.map((c) => values[c])]);
    return streamTsv(
      ['setting', 'namespace', ...METRIC_COLUMNS],
      (async function* () {
        yield rows;
      })(),
      `metrics-${resultId}.tsv`,
    );
  }

  /** A deflate ZIP of the stored evaluator outputs, entry names relative to the result prefix. */
  async artifactsZip(id: string, resultId: string, viewer: Viewer): Promise<StreamableFile> {
    const result = await this.result(id, resultId, viewer);
    const keys = (result['artifact_keys'] as string[] | null) ?? [];
    const prefix = result['artifact_prefix'] ?? '';
    const entries: Record<string, Uint8Array> = {};
    for (const key of keys) {
      if (!(await this.store.exists(key))) continue;
      entries[key.startsWith(prefix) ? key.slice(prefix.length) : key] = await this.store.get(key);
    }
    if (Object.keys(entries).length === 0) throw notFound('Stored artifacts');
    const zip = zipSync(entries, { level: 6 });
    return new StreamableFile(Readable.from(Buffer.from(zip)), {
      type: 'application/zip',
      disposition: `attachment; filename="evaluation-${resultId}.zip"`,
    });
  }

  /** The row goes first, then the stored artifacts. */
  async deleteResult(id: string, resultId: string, viewer: Viewer): Promise<void> {
    requireModifiable(viewer, await this.result(id, resultId, viewer), 'Evaluation result');
    const keys = await this.evaluations.deleteResult(id, resultId);
    for (const key of keys) await this.store.delete(key);
  }

  /** CAFA metrics of a prediction set on an evaluation set, computed now (nothing stored). */
  async predictionSetMetrics(
    predictionSetId: string,
    evaluationSetId: string,
    scoringConfigId: string | undefined,
    viewer: Viewer,
  ) {
    await requirePredictionSet(this.references, predictionSetId, viewer);
    const predictionSet = await this.predictionSets.get(predictionSetId);
    const set = await this.evaluations.getSet(evaluationSetId);
    const scoring = scoringConfigId !== undefined ? await this.scoringConfigs.get(scoringConfigId) : null;
    const snapshot = await this.ontologies.findById(set.ontology_snapshot_id);
    const iaUrl = snapshot?.ia_url ?? null;
    const ia =
      iaUrl !== null
        ? await readingSource('ia_url', () => readText(iaUrl, gatewaySourcePolicy(this.infra)))
        : null;
    try {
      const metrics = await evaluatePredictionSet({
        repos: {
          evaluations: this.evaluations,
          ontologies: this.ontologies,
          predictionSets: this.predictionSets,
        },
        evaluationSetId: set.id,
        ontologySnapshotId: set.ontology_snapshot_id,
        predictionSetId: predictionSet.id,
        weights: scoring?.weights ?? null,
        ia,
        toi: null,
        thStep: 0.01,
        maxTerms: null,
      });
      return {
        prediction_set_id: predictionSet.id,
        evaluation_set_id: set.id,
        scoring_config_id: scoring?.id ?? null,
        weighted: ia !== null,
        metrics,
      };
    } catch (error) {
      if (error instanceof CafaEvaluationError) throw new DomainError('validation_error', error.message);
      throw error;
    }
  }

  /** The benchmark matrix over every stored result, shaped by the optional benchmark config file. */
  async matrix() {
    const config = parseBenchmarkConfig(await readBenchmarkConfigFile(this.infra.config));
    const results = await this.evaluations.allResults();
    const cells = benchmarkMatrix(
      results.map((r) => ({
        ...matrixMethod(r),
        stage: r['stage'] ?? null,
        evaluationSetId: String(r['evaluation_set_id']),
        metrics: r['metrics'],
      })),
      config,
    );
    return {
      categories: config.categories,
      aspects: config.aspects,
      stages: [...new Set(cells.map((c) => c.stage))],
      embeddings: [...new Set(cells.map((c) => c.embedding))],
      evaluation_set_labels: config.evaluation_set_labels,
      cells,
    };
  }

  /** Embedding configs that have evaluation results, minus the hidden ones. */
  async benchmarkEmbeddings() {
    const config = parseBenchmarkConfig(await readBenchmarkConfigFile(this.infra.config));
    const rows = await this.evaluations.embeddingsWithPublicResults();
    return rows.filter(
      (r) => !config.hidden_embeddings.includes(r.id) && !config.hidden_embeddings.includes(r.model_name),
    );
  }

  private uuid(id: string, entity: string): string {
    if (!isUuid(id)) throw notFound(entity);
    return id;
  }
}

/**
 * A matrix row: the method a result's predictions came from. A DIAMOND set is its blend (the embedding
 * config it was filed under played no part); an embedding backend is its embedding config.
 */
function matrixMethod(r: Record<string, unknown>): { embedding: string; embeddingLabel: string } {
  const backend = r['search_backend'] as string | null;
  if (backend === 'diamond') {
    const blend = (r['blend_version'] as string | null) ?? null;
    return {
      embedding: `diamond:${blend ?? 'unversioned'}`,
      embeddingLabel: searchMethodLabel({
        search_backend: backend,
        blend_version: blend,
        embedding_config_name: null,
      }),
    };
  }
  const id = (r['embedding_config_id'] as string | null) ?? 'unknown';
  return { embedding: id, embeddingLabel: (r['embedding_model_name'] as string | null) ?? id };
}
