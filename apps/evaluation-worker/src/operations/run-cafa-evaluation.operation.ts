import { randomUUID } from 'node:crypto';
import { RUN_CAFA_EVALUATION, RunCafaEvaluationPayload } from '@svc/contracts';
import { baselineScoringFor, CafaEvaluationError, checkLafaFrame, verifyBand } from '@svc/domain';
import { defineOperation, JobContext, JobError, missingReference } from '@svc/jobs';
import type { EvaluationSetRecord, NewEvaluationResult } from '@svc/persistence';
import { bindRerankers, evaluatePredictionSet } from '@svc/use-cases';
import { isSettingFailure, readText, SourcePolicy, sourcePolicyOf } from '@svc/platform';
import { loadBenchmarkConfig } from './benchmark-config-file';
import { evaluationArtifacts } from './evaluation-artifacts';

/**
 * CAFA evaluation of a prediction set on an evaluation set's delta proteins, per category (NK, LK,
 * PK with its known terms) and aspect. Scores come from the scoring config when given, else the
 * row's score, max(0, 1 - distance). IA from the payload, else the snapshot's `ia_url`, else none (no `_w` keys, a warning
 * event). Evaluator outputs go to `eval_artifacts/<result_id>/` in the artifact store.
 */
export const runCafaEvaluationOperation = defineOperation<RunCafaEvaluationPayload>({
  spec: RUN_CAFA_EVALUATION,
  async execute({ job, payload, repos, emit, config, throwIfCancelled, artifacts }) {
    const evaluations = repos.evaluations;
    const set = await evaluations.findSet(payload.evaluation_set_id);
    if (set === null) throw missingReference('evaluation_set', payload.evaluation_set_id);
    const predictionSet = await repos.predictionSets.find(payload.prediction_set_id);
    if (predictionSet === null) throw missingReference('prediction_set', payload.prediction_set_id);
    const scoring = await resolveScoring({ payload, repos, emit, config });

    const snapshot = await repos.ontologies.findById(set.ontology_snapshot_id);
    const iaSource = payload.ia_file ?? snapshot?.ia_url ?? null;
    await checkFrame({ payload, emit, set, snapshot, iaSource });
    const sources = sourcePolicyOf(config, artifacts);
    const { ia, toi } = await readWeightFiles({ payload, emit, sources, iaSource });

    const rerankers = await bindRerankers(repos, payload, scoring?.weights ?? null, sources);
    if (rerankers !== null)
      await emit('run_cafa_evaluation.rerankers_bound', null, { reranker_model_ids: rerankers.ids });
    const stage = rerankers !== null ? 'reranker' : (scoring?.name ?? null);
    // The result row is written only once the evaluation has succeeded, with its metrics, in one
    // statement: a failed or cancelled run leaves no result for the matrix, showcase or counts.
    const resultId = randomUUID();
    const resultRow: NewEvaluationResult = {
      id: resultId,
      evaluation_set_id: set.id,
      prediction_set_id: predictionSet.id,
      embedding_config_id: predictionSet.embedding_config_id,
      scoring_config_id: scoring?.id ?? null,
      reranker_model_id: payload.reranker_model_id ?? null,
      rerankers: payload.rerankers ?? null,
      job_id: job.id,
      band: payload.band ?? null,
      frame: payload.frame ?? null,
      th_step: payload.th_step ?? 0.01,
      max_terms: payload.max_terms ?? null,
      ia_source: iaSource,
      toi_source: payload.toi_file ?? null,
      temporal_window: payload.temporal_window ?? null,
      leakage_role: payload.leakage_role ?? null,
      stage,
      // Results are published (benchmark matrix, showcase); their owner may also delete them.
      owner_user_id: job.owner_user_id,
      visibility: 'public',
    };

    const outputs = evaluationArtifacts(artifacts, resultId);
    let metrics: Record<string, Record<string, Record<string, unknown>>>;
    try {
      metrics = await evaluatePredictionSet({
        repos,
        evaluationSetId: set.id,
        ontologySnapshotId: set.ontology_snapshot_id,
        predictionSetId: predictionSet.id,
        weights: scoring?.weights ?? null,
        ...(rerankers !== null ? { scorerFor: rerankers.scorerFor } : {}),
        ia,
        toi,
        thStep: payload.th_step ?? 0.01,
        maxTerms: payload.max_terms ?? null,
        onCategory: async (done) => {
          await throwIfCancelled();
          await outputs.writeCategory(done.category, done);
          await emit('run_cafa_evaluation.category_done', null, {
            category: done.category,
            proteins: new Set(done.truth.map((t) => t.protein_accession)).size,
            predictions: done.predictions.length,
          });
        },
      });
    } catch (error) {
      if (error instanceof CafaEvaluationError) throw new JobError(`evaluation_${error.code}`, error.message);
      throw error;
    }
    const keys = await outputs.finish({
      metrics,
      stage,
      evaluation_set_id: set.id,
      prediction_set_id: predictionSet.id,
    });
    await throwIfCancelled();
    await evaluations.createResult({
      ...resultRow,
      metrics,
      artifact_prefix: outputs.prefix,
      artifact_keys: keys,
    });
    return { evaluation_result_id: resultId, frame: payload.frame ?? null, metrics };
  },
});

type Context = JobContext<RunCafaEvaluationPayload>;

/** The scoring config of the run: the payload's, or the benchmark's baseline for its stage. */
async function resolveScoring({
  payload,
  repos,
  emit,
  config,
}: Pick<Context, 'payload' | 'repos' | 'emit' | 'config'>) {
  const scorings = repos.scoringConfigs;
  let scoring =
    payload.scoring_config_id !== undefined ? await scorings.find(payload.scoring_config_id) : null;
  if (payload.scoring_config_id !== undefined && scoring === null)
    throw missingReference('scoring_config', payload.scoring_config_id);
  const baseline = baselineScoringFor({ payload, config: await loadBenchmarkConfig(config) });
  if (baseline !== null) {
    scoring = await scorings.findByName(baseline);
    if (scoring !== null)
      await emit('run_cafa_evaluation.baseline_attached', null, {
        scoring_config_id: scoring.id,
        name: scoring.name,
      });
  }
  return scoring;
}

/** A run that claims a band or the LAFA frame must be one (`band_mismatch`, `lafa_frame_mismatch`). */
async function checkFrame({
  payload,
  emit,
  set,
  snapshot,
  iaSource,
}: Pick<Context, 'payload' | 'emit'> & {
  set: EvaluationSetRecord;
  snapshot: { obo_version?: string | null } | null;
  iaSource: string | null;
}): Promise<void> {
  if (payload.band !== undefined) {
    const check = verifyBand({ band: payload.band, oboVersion: snapshot?.obo_version ?? '', iaSource });
    if (!check.ok) throw new JobError('band_mismatch', check.reason);
    await emit('run_cafa_evaluation.band_verified', null, {
      band: check.band.name,
      obo_version: check.band.oboVersion,
    });
  }
  if (payload.frame === 'lafa') {
    const lafa = checkLafaFrame({
      band: payload.band ?? null,
      iaSource,
      toiSource: payload.toi_file ?? null,
      thStep: payload.th_step ?? 0.01,
      maxTerms: payload.max_terms ?? null,
      geneCarryOverExcluded:
        (set.stats as { gene_carry_over_excluded?: unknown } | null)?.gene_carry_over_excluded === true,
    });
    if (!lafa.ok)
      throw new JobError('lafa_frame_mismatch', `not a LAFA-comparable run: ${lafa.problems.join('; ')}`);
  }
}

/** The IA and TOI files of the run, read under the source policy (a missing IA is a warning). */
async function readWeightFiles({
  payload,
  emit,
  sources,
  iaSource,
}: Pick<Context, 'payload' | 'emit'> & { sources: SourcePolicy; iaSource: string | null }) {
  const read = async (source: string, what: 'ia' | 'toi'): Promise<string> => {
    try {
      return await readText(source, sources);
    } catch (error) {
      // A refusal or a limit says which setting decides, under its own code.
      if (isSettingFailure(error)) throw new JobError(error.code, `${what} file: ${error.message}`);
      throw new JobError(`${what}_unreadable`, `${what} file ${source}: ${(error as Error).message}`);
    }
  };
  const ia = iaSource !== null ? await read(iaSource, 'ia') : null;
  if (ia === null)
    await emit(
      'run_cafa_evaluation.ia_missing',
      'no IA file (payload or snapshot): uniform weights, the _w metrics are omitted',
      {},
      'warning',
    );
  const toi = payload.toi_file !== undefined ? await read(payload.toi_file, 'toi') : null;
  return { ia, toi };
}
