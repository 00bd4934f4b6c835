import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PredictionsBatchPayload } from '@svc/contracts';
import { batchKey, defineStep, JobError } from '@svc/jobs';
import {
  type ComposedPrior,
  encodeComposedPrior,
  encodePredictionColumns,
  PREDICTION_ROW_COLUMN_NAMES,
} from '@svc/persistence';
import { sourcePolicyOf } from '@svc/platform';
import {
  dropSearchedHits,
  HOMOLOGY_BACKENDS,
  searchedHits,
  splitPriorRows,
  transferBatch,
} from '@svc/go-transfer';
import { applyReranker } from '@svc/use-cases';
import { predictionsWriteStep } from './predictions-write.step';

/** Searches, transfers and featurises one batch of queries, then hands the rows to the write step. */
export const predictionsBatchStep = defineStep<PredictionsBatchPayload>({
  name: 'predict_go_terms_batch',
  queue: 'svc.predictions.batch',
  payload: PredictionsBatchPayload,
  async execute({ payload, repos, dispatch, emit, throwIfCancelled, signal, config, artifacts }) {
    const started = process.hrtime.bigint();
    // The longest the event loop went without a turn during this batch: past the broker's heartbeat
    // timeout the connection drops and the batch is delivered again, so it is reported with the batch.
    const stalls = monitorEventLoopDelay({ resolution: 20 });
    stalls.enable();
    try {
      const set = await repos.predictionSets.find(payload.prediction_set_id);
      if (set === null)
        throw new JobError(
          'prediction_set_not_found',
          `prediction set ${payload.prediction_set_id} was deleted`,
        );
      const sources = sourcePolicyOf(config, artifacts);
      // Hits a search-ahead step left for this batch (predictions-search.step.ts); none: it searches.
      const key = batchKey(payload.queries.map((q) => q.accession));
      const hits = HOMOLOGY_BACKENDS.includes(set.search_backend)
        ? await searchedHits(config.artifactsDir, set.id, key)
        : undefined;
      const transferred = await transferBatch({
        repos,
        config,
        sources,
        settings: set,
        queries: payload.queries,
        emit,
        throwIfCancelled,
        signal,
        ...(hits !== undefined ? { hits } : {}),
      });
      const { summaries, queriesWithoutEmbedding, alignedPairs, composition, submitted } = transferred;
      const rerankerScore = await applyReranker({
        payload,
        options: set.options,
        rows: transferred.rows,
        emit,
        sources,
      });
      // Prior-only rows the reads can compose are not stored (docs/scaling.md, "Storage"); a re-ranked
      // batch stores every row, since its scores are the booster's.
      const split =
        composition !== undefined && config.priorRows === 'composed' && rerankerScore === null
          ? splitPriorRows(transferred.rows, composition)
          : { rows: transferred.rows, composed: [] as ComposedPrior[] };
      const { rows } = split;
      const composedRows = split.composed.reduce((n, c) => n + c.composedRows, 0);

      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      await emit('predict_go_terms_batch.done', null, {
        // Names the batch, so a batch delivered again shows as a repeated key among the events.
        batch: key,
        searched_ahead: hits !== undefined,
        event_loop_max_ms: Math.round(stalls.max / 1e6),
        queries: payload.queries.length,
        queries_without_embedding: queriesWithoutEmbedding,
        queries_without_homolog: summaries.filter((q) => q.homologs === 0).length,
        rows: rows.length + composedRows,
        composed_rows: composedRows,
        aligned_pairs: alignedPairs,
        seconds: Number(seconds.toFixed(3)),
        reranker_score: rerankerScore,
        // Known terms the upload listed (GO=): how many ids, and those no live term of the snapshot
        // has (left out, never a silent drop).
        ...(submitted !== undefined && submitted.queries > 0
          ? {
              submitted_known: {
                queries: submitted.queries,
                ids: submitted.ids,
                unknown_ids: submitted.unknown,
                unknown_sample: submitted.unknownSample,
                queries_unmatched: submitted.unmatched,
              },
            }
          : {}),
      });
      // One write per WRITE_QUERIES queries, so a large batch (DIAMOND's default) never becomes one huge
      // message; each write stores and ticks its own queries once (its batch key).
      const summaryOf = new Map(summaries.map((q) => [q.accession, q]));
      const byQuery = new Map<string, typeof rows>();
      const composedOf = new Map<string, ComposedPrior[]>();
      for (const pair of split.composed) {
        let list = composedOf.get(pair.accession);
        if (list === undefined) composedOf.set(pair.accession, (list = []));
        list.push(pair);
      }
      for (const row of rows) {
        const accession = String(row.protein_accession);
        let list = byQuery.get(accession);
        if (list === undefined) byQuery.set(accession, (list = []));
        list.push(row);
      }
      for (let start = 0; start < payload.queries.length; start += WRITE_QUERIES) {
        const queries = payload.queries.slice(start, start + WRITE_QUERIES);
        const accessions = [...new Set(queries.map((q) => q.accession))];
        const pairs = accessions.flatMap((accession) => composedOf.get(accession) ?? []);
        await dispatch(predictionsWriteStep, {
          prediction_set_id: set.id,
          columns: [...PREDICTION_ROW_COLUMN_NAMES],
          values: encodePredictionColumns(accessions.flatMap((accession) => byQuery.get(accession) ?? [])),
          ...(pairs.length > 0 && composition !== undefined
            ? { composed_prior: encodeComposedPrior({ prior: composition.prior, pairs }) }
            : {}),
          query_count: queries.length,
          batch_key: batchKey(queries.map((q) => q.accession)),
          query_summaries: accessions.flatMap((accession) => {
            const q = summaryOf.get(accession);
            return q === undefined
              ? []
              : [
                  [accession, q.homologs, q.best_identity, q.known_terms] as [
                    string,
                    number,
                    number | null,
                    number,
                  ],
                ];
          }),
        });
        // A query listed twice in one batch gets its rows once.
        for (const accession of accessions) {
          byQuery.delete(accession);
          composedOf.delete(accession);
        }
      }
      if (hits !== undefined) await dropSearchedHits(config.artifactsDir, set.id, key);
    } finally {
      stalls.disable();
    }
  },
});

/** Queries per write message. */
export const WRITE_QUERIES = 100;
