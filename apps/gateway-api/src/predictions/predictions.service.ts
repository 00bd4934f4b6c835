import { Inject, Injectable, OnModuleDestroy, OnModuleInit, StreamableFile } from '@nestjs/common';
import {
  CafaExportQuery,
  DomainError,
  isUuid,
  notFound,
  PREDICT_GO_TERMS,
  PredictGoTermsPayload,
  PredictionExportQuery,
} from '@svc/contracts';
import { INFRASTRUCTURE, Infrastructure } from '@svc/jobs';
import {
  EvaluationRepository,
  PredictionSetRepository,
  PREDICTIONS_TSV_COLUMNS,
  queryOne,
  queryRows,
} from '@svc/persistence';
import { Principal } from '@svc/platform';
import { CachedValue } from '../common/cached-value';
import { JobsService } from '../jobs/jobs.service';
import { GATEWAY_AUTH, GatewayAuth } from '../auth/guards';
import { streamTsv } from './tsv';

/** Prediction requests, the cached prediction-set list, and every read and export of a set. */
@Injectable()
export class PredictionsService implements OnModuleInit, OnModuleDestroy {
  private readonly sets: PredictionSetRepository;
  private readonly recent: CachedValue<{ items: Record<string, unknown>[] }>;

  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    private readonly jobs: JobsService,
    @Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth,
  ) {
    this.sets = new PredictionSetRepository(infra.db);
    this.recent = new CachedValue(
      'prediction_sets',
      async () => ({ items: await this.sets.list(100) }),
      5 * 60 * 1000,
      infra.logger.child('gateway.cache'),
    );
  }

  onModuleInit(): void {
    this.recent.start();
  }

  onModuleDestroy(): void {
    this.recent.stop();
  }

  /**
   * Checks every reference now (404 names the missing one), charges guests their sequence quota by
   * the number of queries, then queues predict_go_terms.
   */
  async predict(payload: PredictGoTermsPayload, principal: Principal | undefined) {
    const db = this.infra.db;
    const exists = async (table: string, id: string, label: string): Promise<void> => {
      if ((await queryOne(db, `SELECT 1 FROM ${table} WHERE id = $1`, [id])) === null) throw notFound(label);
    };
    await exists('embedding_config', payload.embedding_config_id, 'Embedding config');
    await exists('annotation_set', payload.annotation_set_id, 'Annotation set');
    await exists('ontology_snapshot', payload.ontology_snapshot_id, 'Ontology snapshot');
    if (payload.query_set_id !== undefined) await exists('query_set', payload.query_set_id, 'Query set');
    if (payload.reranker_model_id !== undefined)
      await exists('reranker_model', payload.reranker_model_id, 'Re-ranker');
    const role = principal?.role ?? 'guest';
    if (role === 'guest' && principal !== undefined) {
      const count = await queryOne<{ n: number }>(
        db,
        payload.query_set_id !== undefined
          ? `SELECT count(*)::int AS n FROM query_set_entry WHERE query_set_id = $1`
          : `SELECT count(DISTINCT p.accession)::int AS n FROM protein p JOIN embedding e ON e.sequence_id = p.sequence_id
              WHERE e.embedding_config_id = $1`,
        [payload.query_set_id ?? payload.embedding_config_id],
      );
      await this.auth.limits.consumeDaily(principal, 'annotate_sequences', Math.max(1, count?.n ?? 1));
    }
    this.recent.invalidate();
    return this.jobs.dispatch({ ...PREDICT_GO_TERMS, roleFloor: 'guest' }, payload, principal);
  }

  async list(): Promise<Record<string, unknown>[]> {
    return (await this.recent.get()).items;
  }

  detail(id: string) {
    this.requireUuid(id);
    return this.sets.detail(id);
  }

  async delete(id: string) {
    this.requireUuid(id);
    const result = await this.sets.delete(id);
    this.recent.invalidate();
    return result;
  }

  proteins(id: string, query: { search?: string; limit?: number; offset?: number }) {
    this.requireUuid(id);
    return this.sets.proteins(id, {
      search: query.search,
      limit: query.limit ?? 50,
      offset: query.offset ?? 0,
    });
  }

  protein(id: string, accession: string) {
    this.requireUuid(id);
    return this.sets.proteinPredictions(id, accession);
  }

  goTerms(id: string, limit: number | undefined) {
    this.requireUuid(id);
    return this.sets.goTermDistribution(id, limit ?? 50);
  }

  resolve(querySetId: string, embeddingConfigId: string) {
    return this.sets.resolve(querySetId, embeddingConfigId);
  }

  /** predictions.tsv: 32 columns, header first, ordered by accession then distance, in chunks of 1000. */
  async predictionsTsv(id: string, query: PredictionExportQuery): Promise<StreamableFile> {
    this.requireUuid(id);
    await this.sets.get(id);
    const rows = this.sets.streamRows(id, this.filters(query));
    async function* chunks() {
      for await (const chunk of rows) yield chunk.map((r) => PREDICTIONS_TSV_COLUMNS.map((c) => r[c]));
    }
    return streamTsv(PREDICTIONS_TSV_COLUMNS, chunks(), `predictions-${id}.tsv`);
  }

  /**
   * CAFA prediction file: `protein go_id score` with score = max(0, 1 - distance), the best score per
   * (protein, term). With `eval_id`, only the NK and LK proteins of that evaluation set.
   */
  async cafaTsv(id: string, query: CafaExportQuery): Promise<StreamableFile> {
    this.requireUuid(id);
    await this.sets.get(id);
    let restrict: Set<string> | null = null;
    if (query.eval_id !== undefined) restrict = await this.deltaProteins(query.eval_id);
    const filters = this.filters(query);
    const rows = this.sets.streamRows(id, filters);
    async function* chunks() {
      // Rows arrive by accession then distance, so the first row of a (protein, term) is its best.
      let protein: string | null = null;
      let seen = new Set<string>();
      for await (const chunk of rows) {
        const out: unknown[][] = [];
        for (const r of chunk) {
          const accession = String(r['protein_accession']);
          if (restrict !== null && !restrict.has(accession)) continue;
          if (accession !== protein) {
            protein = accession;
            seen = new Set();
          }
          const goId = String(r['go_id']);
          if (seen.has(goId)) continue;
          seen.add(goId);
          out.push([accession, goId, Math.max(0, 1 - Number(r['distance'])).toFixed(6)]);
        }
        yield out;
      }
    }
    return streamTsv(null, chunks(), `predictions-cafa-${id}.tsv`);
  }

  private async deltaProteins(evaluationSetId: string): Promise<Set<string>> {
    await new EvaluationRepository(this.infra.db).getSet(evaluationSetId);
    const rows = await queryRows<{ protein_accession: string }>(
      this.infra.db,
      `SELECT DISTINCT protein_accession FROM evaluation_ground_truth WHERE evaluation_set_id = $1 AND category IN ('NK', 'LK')`,
      [evaluationSetId],
    );
    return new Set(rows.map((r) => r.protein_accession));
  }

  private filters(query: PredictionExportQuery) {
    return {
      ...(query.accession !== undefined ? { accession: query.accession } : {}),
      ...(query.aspect !== undefined ? { aspect: query.aspect } : {}),
      ...(query.max_distance !== undefined ? { maxDistance: query.max_distance } : {}),
    };
  }

  private requireUuid(id: string): void {
    if (!isUuid(id)) throw notFound('Prediction set');
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
