import { Inject, Injectable, OnModuleDestroy, OnModuleInit, StreamableFile } from '@nestjs/common';
import {
  CafaExportQuery,
  DomainError,
  GoTermDistributionQuery,
  PREDICT_GO_TERMS,
  PredictGoTermsPayload,
  PredictionExportQuery,
  StandardExportQuery,
} from '@svc/contracts';
import { listScope, provenanceWarningCodes, provenanceWarnings, Viewer } from '@svc/domain';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import {
  EvaluationRepository,
  JobRepository,
  LabelledPredictionSet,
  PredictionExportReader,
  PredictionProvenanceRepository,
  PredictionSetRepository,
  ReferenceCheckRepository,
} from '@svc/persistence';
import { Principal } from '@svc/platform';
import { CachedValue } from '../common/cached-value';
import { requirePredictionSet, requireReadable } from '../common/ownership';
import { JobsService } from '../jobs/jobs.service';
import { GATEWAY_AUTH, GatewayAuth } from '../auth/guards';
import { downloadStream } from './tsv';
import { exportFilters, gafDate, PredictionFiles, textFile, TSV, zipStream } from './prediction-files';

/** A prediction set as the list answers it. */
type PredictionSetListItem = LabelledPredictionSet & { prediction_count: number };

/** The operations whose success adds or removes prediction sets (or completes one: its counts and status). */
const PREDICTION_SET_WRITERS = ['predict_go_terms', 'purge_expired_results'];

/** Prediction requests, the cached prediction-set list, and every read and export of a set. */
@Injectable()
export class PredictionsService implements OnModuleInit, OnModuleDestroy {
  private readonly recent: CachedValue<{ items: PredictionSetListItem[] }>;
  private readonly files: PredictionFiles;

  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    private readonly jobs: JobsService,
    @Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth,
    private readonly sets: PredictionSetRepository,
    downloads: PredictionExportReader,
    finishedJobs: JobRepository,
    private readonly references: ReferenceCheckRepository,
    private readonly evaluations: EvaluationRepository,
    provenance: PredictionProvenanceRepository,
  ) {
    this.files = new PredictionFiles(downloads, provenance);
    // Sets are made and purged by workers: a job finishing refreshes the list within a second.
    this.recent = new CachedValue(
      'prediction_sets',
      async () => ({ items: await this.sets.list({ kind: 'all' }, 100) }),
      5 * 60 * 1000,
      infra.logger.child('gateway.cache'),
      () => finishedJobs.lastSucceededAt(PREDICTION_SET_WRITERS),
    );
  }

  onModuleInit(): void {
    this.recent.start();
  }

  onModuleDestroy(): void {
    this.recent.stop();
  }

  /** For a write elsewhere in the gateway that removes sets (deleting their embedding config). */
  setsChanged(): void {
    this.recent.invalidate();
  }

  /**
   * Queues predict_go_terms through the one-click entry point; the dispatch checks every reference (a
   * 404 names the missing one) and charges the caller's sequence quota by the query set's entries.
   */
  async predict(payload: PredictGoTermsPayload, principal: Principal | undefined) {
    this.recent.invalidate();
    return this.jobs.dispatch(PREDICT_GO_TERMS, payload, principal, { via: 'annotate' });
  }

  /**
   * The newest 100 sets the viewer may list. The unfiltered list (staff, or the gate off) is served
   * from the cache; a filtered one is read each time.
   */
  async list(viewer: Viewer, mine: boolean): Promise<PredictionSetListItem[]> {
    const scope = listScope(viewer, mine);
    if (scope.kind === 'all') return (await this.recent.get()).items;
    return this.sets.list(scope, 100);
  }

  /** The set with what backs it: its reference, its coverage and the warnings they call for. */
  async detail(id: string, viewer: Viewer) {
    await this.requireSet(id, viewer);
    const set = await this.sets.detail(id);
    const { reference, coverage } = await this.files.backing(id);
    return {
      ...set,
      coverage,
      warnings: provenanceWarnings(reference, coverage),
      warning_codes: provenanceWarningCodes(reference, coverage),
    };
  }

  /** Its owner (or staff) publishes a set to anyone with the link, or takes it back. */
  async setVisibility(id: string, visibility: 'public' | 'owner', viewer: Viewer) {
    await this.requireSet(id, viewer, 'modify');
    await this.sets.setVisibility(id, visibility);
    this.recent.invalidate();
    return this.detail(id, viewer);
  }

  async delete(id: string, viewer: Viewer) {
    await this.requireSet(id, viewer, 'modify');
    const result = await this.sets.delete(id);
    this.recent.invalidate();
    return result;
  }

  async proteins(id: string, query: { search?: string; limit?: number; offset?: number }, viewer: Viewer) {
    await this.requireSet(id, viewer);
    return this.sets.proteins(id, {
      search: query.search,
      limit: query.limit ?? 50,
      offset: query.offset ?? 0,
    });
  }

  async protein(id: string, accession: string, viewer: Viewer) {
    await this.requireSet(id, viewer);
    return this.sets.proteinPredictions(id, accession);
  }

  async goTerms(id: string, query: GoTermDistributionQuery, viewer: Viewer) {
    await this.requireSet(id, viewer);
    return this.sets.goTermDistribution(id, {
      limit: query.limit ?? 50,
      minScore: query.min_score ?? 0,
      homologyOnly: query.basis === 'homology',
    });
  }

  async resolve(querySetId: string, embeddingConfigId: string, viewer: Viewer) {
    return requireReadable(viewer, await this.sets.resolve(querySetId, embeddingConfigId), 'Prediction set');
  }

  /** predictions.tsv: 32 columns and the score, header first, ordered by accession then distance, in chunks of 1000. */
  async predictionsTsv(id: string, query: PredictionExportQuery, viewer: Viewer): Promise<StreamableFile> {
    await this.requireSet(id, viewer);
    return textFile(this.files.tsvText(id, exportFilters(query)), TSV, `predictions-${id}.tsv`);
  }

  /**
   * CAFA prediction file: `protein go_id score`, the best row score per (protein, term)
   * (docs/prediction.md, "Score"), a protein's terms by score. With `eval_id`, only the NK and LK
   * proteins of that evaluation set.
   */
  async cafaTsv(id: string, query: CafaExportQuery, viewer: Viewer): Promise<StreamableFile> {
    await this.requireSet(id, viewer);
    const restrict = query.eval_id !== undefined ? await this.deltaProteins(query.eval_id) : null;
    return textFile(
      this.files.cafaText(id, exportFilters(query), restrict),
      TSV,
      `predictions-cafa-${id}.tsv`,
    );
  }

  /**
   * GAF 2.2 of the set: one line per (protein, term) scoring at least `min_score`, best first
   * (`predictionGafLine`: IEA, the method's SVC_REF reference, the donor in With/From, the query's
   * taxon; the set is named in the header; GAF has no score column).
   */
  async gaf(id: string, query: StandardExportQuery, viewer: Viewer): Promise<StreamableFile> {
    await this.requireSet(id, viewer);
    const date = gafDate((await this.sets.get(id)).created_at);
    return textFile(
      this.files.gafText(id, exportFilters(query), date),
      'text/plain; charset=utf-8',
      `predictions-${id}.gaf`,
    );
  }

  /**
   * JSON of the set, streamed: `[{protein, terms: [{go_id, go_name, aspect, score, donor, identity,
   * evidence_code, source}]}]`, terms scoring at least `min_score`, best first.
   */
  async json(id: string, query: StandardExportQuery, viewer: Viewer): Promise<StreamableFile> {
    await this.requireSet(id, viewer);
    return textFile(
      this.files.jsonText(id, exportFilters(query)),
      'application/json; charset=utf-8',
      `predictions-${id}.json`,
    );
  }

  /**
   * Every format of the set in one ZIP, streamed entry by entry: predictions.tsv,
   * predictions-cafa.tsv, predictions.gaf and predictions.json, each cut at `min_score`.
   */
  async zip(id: string, query: StandardExportQuery, viewer: Viewer): Promise<StreamableFile> {
    await this.requireSet(id, viewer);
    const date = gafDate((await this.sets.get(id)).created_at);
    const filters = exportFilters(query);
    const entries = [
      { name: 'predictions.tsv', text: () => this.files.tsvText(id, filters) },
      { name: 'predictions-cafa.tsv', text: () => this.files.cafaText(id, filters, null) },
      { name: 'predictions.gaf', text: () => this.files.gafText(id, filters, date) },
      { name: 'predictions.json', text: () => this.files.jsonText(id, filters) },
    ];
    return new StreamableFile(downloadStream(zipStream(entries)), {
      type: 'application/zip',
      disposition: `attachment; filename="predictions-${id}.zip"`,
    });
  }

  private async deltaProteins(evaluationSetId: string): Promise<Set<string>> {
    await this.evaluations.getSet(evaluationSetId);
    return this.evaluations.proteinsOfCategories(evaluationSetId, ['NK', 'LK']);
  }

  /** 404 when the viewer may not read the set (or there is none), 403 when they may read but not change it. */
  private requireSet(id: string, viewer: Viewer, access: 'read' | 'modify' = 'read') {
    return requirePredictionSet(this.references, id, viewer, access);
  }
}

export function invalidBody(messages: string[]): DomainError {
  return new DomainError(
    'validation_error',
    messages.join('; '),
    { messages },
    messages.map((message) => ({ path: /^([\w.]+)/.exec(message)?.[1] ?? '', message })),
  );
}
