import { Zip, ZipDeflate } from 'fflate';
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
import {
  basisOf,
  listScope,
  predictionGafHeader,
  predictionGafLine,
  provenanceComment,
  provenanceHeader,
  provenanceWarningCodes,
  provenanceWarnings,
  type Coverage,
  type QuerySummary,
  type ReferenceSummary,
  Viewer,
} from '@svc/domain';
import { INFRASTRUCTURE, Infrastructure } from '@svc/jobs';
import {
  BestTermRow,
  EvaluationRepository,
  JobRepository,
  PredictionExportReader,
  PredictionProvenanceRepository,
  PREDICTIONS_TSV_COLUMNS,
  PredictionSetRepository,
  ReferenceCheckRepository,
} from '@svc/persistence';
import { Principal } from '@svc/platform';
import { CachedValue } from '../common/cached-value';
import { requirePredictionSet, requireReadable } from '../common/ownership';
import { JobsService } from '../jobs/jobs.service';
import { GATEWAY_AUTH, GatewayAuth } from '../auth/guards';
import { downloadStream, tsvLines } from './tsv';

/** The operations whose success adds or removes prediction sets (or completes one: its counts and status). */
const PREDICTION_SET_WRITERS = ['predict_go_terms', 'purge_expired_results'];

/** Prediction requests, the cached prediction-set list, and every read and export of a set. */
@Injectable()
export class PredictionsService implements OnModuleInit, OnModuleDestroy {
  private readonly recent: CachedValue<{ items: Record<string, unknown>[] }>;

  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    private readonly jobs: JobsService,
    @Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth,
    private readonly sets: PredictionSetRepository,
    private readonly downloads: PredictionExportReader,
    finishedJobs: JobRepository,
    private readonly references: ReferenceCheckRepository,
    private readonly evaluations: EvaluationRepository,
    private readonly provenance: PredictionProvenanceRepository,
  ) {
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
  async list(viewer: Viewer, mine: boolean): Promise<Record<string, unknown>[]> {
    const scope = listScope(viewer, mine);
    if (scope.kind === 'all') return (await this.recent.get()).items;
    return this.sets.list(scope, 100);
  }

  /** The set with what backs it: its reference, its coverage and the warnings they call for. */
  async detail(id: string, viewer: Viewer) {
    await this.requireSet(id, viewer);
    const set = await this.sets.detail(id);
    const { reference, coverage } = await this.backing(id);
    return {
      ...set,
      coverage,
      warnings: provenanceWarnings(reference, coverage),
      warning_codes: provenanceWarningCodes(reference, coverage),
    };
  }

  private async backing(
    id: string,
  ): Promise<{ reference: ReferenceSummary | null; coverage: Coverage | null }> {
    const [reference, coverage] = await Promise.all([
      this.provenance.reference(id),
      this.provenance.coverage(id),
    ]);
    return { reference, coverage };
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
    return textFile(this.tsvText(id, this.filters(query)), TSV, `predictions-${id}.tsv`);
  }

  /**
   * CAFA prediction file: `protein go_id score`, the best row score per (protein, term)
   * (docs/prediction.md, "Score"), a protein's terms by score. With `eval_id`, only the NK and LK
   * proteins of that evaluation set.
   */
  async cafaTsv(id: string, query: CafaExportQuery, viewer: Viewer): Promise<StreamableFile> {
    await this.requireSet(id, viewer);
    const restrict = query.eval_id !== undefined ? await this.deltaProteins(query.eval_id) : null;
    return textFile(this.cafaText(id, this.filters(query), restrict), TSV, `predictions-cafa-${id}.tsv`);
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
      this.gafText(id, this.filters(query), date),
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
      this.jsonText(id, this.filters(query)),
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
    const filters = this.filters(query);
    const entries = [
      { name: 'predictions.tsv', text: () => this.tsvText(id, filters) },
      { name: 'predictions-cafa.tsv', text: () => this.cafaText(id, filters, null) },
      { name: 'predictions.gaf', text: () => this.gafText(id, filters, date) },
      { name: 'predictions.json', text: () => this.jsonText(id, filters) },
    ];
    return new StreamableFile(downloadStream(zipStream(entries)), {
      type: 'application/zip',
      disposition: `attachment; filename="predictions-${id}.zip"`,
    });
  }

  /** The column header first, then one comment line naming what the rows stand on, then the rows. */
  private async *tsvText(id: string, filters: ExportFilters): AsyncGenerator<string> {
    const { reference, coverage } = await this.backing(id);
    yield `${PREDICTIONS_TSV_COLUMNS.join('\t')}\n${provenanceComment(provenanceHeader(reference, coverage))}\n`;
    yield* tsvLines(null, this.downloads.tsvRows(id, rowFilters(filters)));
  }

  private async *cafaText(
    id: string,
    filters: ExportFilters,
    restrict: Set<string> | null,
  ): AsyncGenerator<string> {
    const proteins = this.bestTerms(id, filters, restrict);
    async function* chunks() {
      for await (const { protein, terms } of proteins)
        yield terms.map((t) => [protein, t.goId, t.score.toFixed(6)]);
    }
    yield* tsvLines(null, chunks());
  }

  private async *gafText(id: string, filters: ExportFilters, date: string): AsyncGenerator<string> {
    const { minScore } = filters;
    const { reference, coverage } = await this.backing(id);
    yield (
      predictionGafHeader({
        predictionSetId: id,
        generated: new Date().toISOString().slice(0, 10),
        minScore,
        provenance: provenanceHeader(reference, coverage),
      }).join('\n') + '\n'
    );
    for await (const { protein, terms } of this.bestTerms(id, filters, null)) {
      if (terms.length === 0) continue;
      yield (
        terms
          .map((t) =>
            predictionGafLine({
              protein,
              symbol: t.geneName,
              goId: t.goId,
              aspect: t.aspect as 'F' | 'P' | 'C',
              taxonId: t.queryTaxonomyId,
              donor: t.donor,
              date,
              known: t.known ? { evidenceCode: t.evidenceCode } : null,
            }),
          )
          .join('\n') + '\n'
      );
    }
  }

  /**
   * `{prediction_set_id, reference, coverage, warnings, min_score, proteins: [...]}`: what the set
   * stands on, then each protein with its homologs, best identity and basis, and its terms.
   */
  private async *jsonText(id: string, filters: ExportFilters): AsyncGenerator<string> {
    const { minScore } = filters;
    const { reference, coverage } = await this.backing(id);
    const summaries = await this.provenance.querySummaries(id);
    const head = {
      prediction_set_id: id,
      reference,
      coverage,
      warnings: provenanceWarnings(reference, coverage),
      warning_codes: provenanceWarningCodes(reference, coverage),
      min_score: minScore,
    };
    yield `${JSON.stringify(head).slice(0, -1)},"proteins":[`;
    let first = true;
    for await (const { protein, terms } of this.bestTerms(id, filters, null)) {
      if (terms.length === 0) continue;
      const summary: QuerySummary | undefined = summaries.get(protein);
      const entry = {
        protein,
        homologs: summary?.homologs ?? null,
        best_identity: summary?.best_identity ?? null,
        basis: summary === undefined ? null : basisOf(summary),
        terms: terms.map((t) => ({
          go_id: t.goId,
          go_name: t.goName,
          aspect: t.aspect,
          score: Number(t.score.toFixed(6)),
          donor: t.donor,
          identity: t.identity,
          evidence_code: t.evidenceCode,
          source: t.known ? 'known' : t.donor === null ? 'prior' : 'homology',
        })),
      };
      yield `${first ? '' : ','}\n${JSON.stringify(entry)}`;
      first = false;
    }
    yield '\n]}\n';
  }

  /**
   * The set's proteins in accession order, each with its best row per term (the highest score),
   * best first, those under `filters.minScore` left out; `restrict` keeps only the proteins it names.
   */
  private async *bestTerms(
    id: string,
    filters: ExportFilters,
    restrict: Set<string> | null,
  ): AsyncGenerator<{ protein: string; terms: BestTermRow[] }> {
    const { minScore, ...rows } = filters;
    for await (const { protein, terms } of this.downloads.bestTerms(id, rows)) {
      if (restrict !== null && !restrict.has(protein)) continue;
      yield { protein, terms: minScore > 0 ? terms.filter((t) => t.score >= minScore) : terms };
    }
  }

  private async deltaProteins(evaluationSetId: string): Promise<Set<string>> {
    await this.evaluations.getSet(evaluationSetId);
    return this.evaluations.proteinsOfCategories(evaluationSetId, ['NK', 'LK']);
  }

  private filters(query: PredictionExportQuery): ExportFilters {
    return {
      minScore: query.min_score ?? 0,
      ...(query.accession !== undefined ? { accession: query.accession } : {}),
      ...(query.aspect !== undefined ? { aspect: query.aspect } : {}),
      ...(query.max_distance !== undefined ? { maxDistance: query.max_distance } : {}),
    };
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

type RowFilters = { accession?: string; aspect?: 'F' | 'P' | 'C'; maxDistance?: number };
/** The download filters; `minScore` cuts terms (CAFA, GAF, JSON) or rows (TSV) scoring under it. */
type ExportFilters = RowFilters & { minScore: number };

/**
 * The TSV's row filters: a row scores max(0, 1 - distance) (docs/prediction.md, "Score"), so a score
 * floor is a distance ceiling.
 */
function rowFilters({ minScore, ...rows }: ExportFilters): RowFilters {
  if (minScore <= 0) return rows;
  const ceiling = 1 - minScore;
  return {
    ...rows,
    maxDistance: rows.maxDistance === undefined ? ceiling : Math.min(rows.maxDistance, ceiling),
  };
}

const TSV = 'text/tab-separated-values; charset=utf-8';

function textFile(text: AsyncIterable<string>, type: string, filename: string): StreamableFile {
  return new StreamableFile(downloadStream(text), {
    type,
    disposition: `attachment; filename="${filename}"`,
  });
}

/**
 * A ZIP written as it is read: each entry's text is deflated chunk by chunk (fflate's streaming
 * zip), so the archive of a large set never sits in memory.
 */
async function* zipStream(
  entries: { name: string; text: () => AsyncIterable<string> }[],
): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  const state: { failure: Error | null } = { failure: null };
  const zip = new Zip((error, data) => {
    if (error !== null) state.failure = error;
    else ready.push(data);
  });
  const encoder = new TextEncoder();
  for (const entry of entries) {
    const file = new ZipDeflate(entry.name, { level: 6 });
    zip.add(file);
    for await (const text of entry.text()) {
      file.push(encoder.encode(text), false);
      if (state.failure !== null) throw state.failure;
      while (ready.length > 0) yield ready.shift()!;
    }
    file.push(new Uint8Array(0), true);
    while (ready.length > 0) yield ready.shift()!;
  }
  zip.end();
  if (state.failure !== null) throw state.failure;
  while (ready.length > 0) yield ready.shift()!;
}

/** A timestamp as GAF's YYYYMMDD (today when it cannot be read). */
function gafDate(value: unknown): string {
  const date = value instanceof Date ? value : new Date(String(value));
  return (Number.isNaN(date.getTime()) ? new Date() : date).toISOString().slice(0, 10).replace(/-/g, '');
}
