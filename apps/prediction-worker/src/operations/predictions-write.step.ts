import { PredictionsWritePayload } from '@svc/contracts';
import { coverageOf, provenanceWarningCodes, provenanceWarnings, type QuerySummary } from '@svc/domain';
import { defineStep, JobError } from '@svc/jobs';
import {
  type ComposedPriorWrite,
  Db,
  decodeComposedPrior,
  decodePredictionColumns,
  JobEventRepository,
  PredictionRow,
  Repositories,
} from '@svc/persistence';

/**
 * Stores one batch's prediction rows and query summaries, adds them to the parent's
 * `prediction_count` and ticks its progress by its queries, in one transaction and once per batch key:
 * a redelivered write adds no duplicate rows and counts them once. The write that closes the job
 * gives its result the set's coverage (queries without a homolog) and warnings, and records the
 * `predict_go_terms.coverage` event, in the same transaction.
 */
export const predictionsWriteStep = defineStep<PredictionsWritePayload>({
  name: 'predict_go_terms_write',
  queue: 'svc.predictions.write',
  payload: PredictionsWritePayload,
  // Two writes side by side: each is one transaction of bulk inserts (the database's work, not this
  // process's), and their progress ticks serialise on the job row at commit.
  concurrency: 2,
  async execute({ payload, repos, parentJobId, tick, tickOnce, throwIfCancelled }) {
    await throwIfCancelled();
    const sets = repos.predictionSets;
    const jobs = repos.jobs;
    const columns = rowsOf(payload);
    const composed = composedOf(payload);
    const counts = { prediction_count: 0 };
    // The set's rows: those stored and those its composed pairs give at read.
    const write = async (tx?: Db): Promise<void> => {
      const stored =
        'rows' in columns
          ? await sets.writeRows(payload.prediction_set_id, columns.rows, tx)
          : await sets.writeColumns(payload.prediction_set_id, columns.values, tx);
      const composedRows =
        composed === null ? 0 : await sets.writeComposedPrior(payload.prediction_set_id, composed, tx);
      counts.prediction_count = stored + composedRows;
    };
    const summaries = summariesOf(payload);
    if (payload.batch_key !== undefined) {
      const committed = await tickOnce(
        payload.batch_key,
        payload.query_count,
        async (tx) => {
          await write(tx);
          await repos.predictionProvenance.writeQuerySummaries(payload.prediction_set_id, summaries, tx);
          await jobs.mergeResult(parentJobId, { counts }, tx);
        },
        (tx) => closeWithCoverage(repos, parentJobId, payload.prediction_set_id, tx),
      );
      // The write that closed the job refreshes the planner's statistics: without them every page of
      // an export or evaluation of a large set scans and sorts the rest of the set.
      if (committed && (await jobs.findById(parentJobId))?.status === 'SUCCEEDED')
        await sets.refreshStatistics();
      return;
    }
    // A message queued before batch keys existed: written and ticked as before.
    await write();
    await jobs.mergeResult(parentJobId, { counts });
    await tick(payload.query_count);
  },
});

function summariesOf(payload: PredictionsWritePayload): QuerySummary[] {
  return (payload.query_summaries ?? []).map(([accession, homologs, best, known]) => ({
    accession: String(accession),
    homologs: Number(homologs),
    best_identity: best === null ? null : Number(best),
    known_terms: Number(known),
  }));
}

/** The closing write's last words: the set's coverage and warnings in the result, and an event. */
async function closeWithCoverage(repos: Repositories, jobId: string, setId: string, tx: Db): Promise<void> {
  const provenance = repos.predictionProvenance;
  const coverage =
    (await provenance.coverage(setId, tx)) ?? coverageOf({ queries: 0, without_homolog: 0, known: 0 });
  const reference = await provenance.reference(setId, tx);
  const warnings = provenanceWarnings(reference, coverage);
  const warningCodes = provenanceWarningCodes(reference, coverage);
  await repos.jobs.mergeResult(jobId, { fields: { coverage, warnings, warning_codes: warningCodes } }, tx);
  await new JobEventRepository(tx).append(
    jobId,
    'predict_go_terms.coverage',
    warnings.length > 0 ? warnings.join(' ') : null,
    { ...coverage },
    warnings.length > 0 ? 'warning' : 'info',
  );
}

/** What the message composes instead of storing, or null when it stores every row. */
function composedOf(payload: PredictionsWritePayload): ComposedPriorWrite | null {
  if (payload.composed_prior === undefined) return null;
  const decoded = decodeComposedPrior(payload.composed_prior);
  if ('error' in decoded) throw new JobError('invalid_payload', `invalid write message: ${decoded.error}`);
  return decoded.value;
}

/** The message's rows: columnar (`columns` + `values`), or row objects from an older batch step. */
function rowsOf(payload: PredictionsWritePayload): { values: unknown[][] } | { rows: PredictionRow[] } {
  if (payload.values !== undefined) {
    const decoded = decodePredictionColumns(payload.columns ?? [], payload.values);
    if ('error' in decoded) throw new JobError('invalid_payload', `invalid write message: ${decoded.error}`);
    return decoded;
  }
  if (payload.rows !== undefined) return { rows: payload.rows };
  throw new JobError('invalid_payload', 'invalid write message: it holds neither values nor rows');
}
