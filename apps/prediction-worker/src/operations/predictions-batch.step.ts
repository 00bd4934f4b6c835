import { PredictionsBatchPayload } from '@svc/contracts';
import { selectNeighbours, splitIsoform, transferTerms, TransferredTerm } from '@svc/domain';
import { batchKey, defineStep, JobError } from '@svc/jobs';
import { PredictionRow, PredictionSetRepository, ReferencePoolRepository } from '@svc/persistence';
import { normalizeRows } from '@svc/inference';
import { ontologyView } from './ontology-cache';
import { referenceIndexCache, ReferenceIndex } from './reference-index-cache';
import { addExtraFeatures } from './extra-features';
import { pairFeatureService } from './pair-features';
import { taxonomyFeatures } from './taxonomy-features';
import { applyReranker } from './apply-reranker';

export const PREDICTIONS_BATCH = 'predict_go_terms_batch';
export const PREDICTIONS_WRITE = 'predict_go_terms_write';

/** Extra hits searched beyond k, so excluding the query itself (and its isoforms) still leaves k. */
const SELF_MARGIN = 10;

interface PendingRow {
  query: { accession: string; sequenceId: number; taxonomyId: string | null };
  ref: { accession: string; sequenceId: number };
  term: TransferredTerm;
}

/** Searches, transfers and featurises one batch of queries, then hands the rows to the write step. */
export const predictionsBatchStep = defineStep<PredictionsBatchPayload>({
  name: PREDICTIONS_BATCH,
  queue: 'svc.predictions.batch',
  payload: PredictionsBatchPayload,
  async execute({ payload, db, dispatch, emit, throwIfCancelled, config }) {
    const started = process.hrtime.bigint();
    const set = await new PredictionSetRepository(db).find(payload.prediction_set_id);
    if (set === null)
      throw new JobError(
        'prediction_set_not_found',
        `prediction set ${payload.prediction_set_id} was deleted`,
      );
    const options = set.options;
    const donorEvidence = options['donor_evidence'] === 'experimental' ? 'experimental' : 'all';
    const aspects = set.aspect_separated_knn ? (['F', 'P', 'C'] as const) : ([null] as const);
    const cache = referenceIndexCache(db, config.artifactsDir);
    const version = await cache.version(set.embedding_config_id, set.annotation_set_id);
    const indexes: ReferenceIndex[] = [];
    for (const aspect of aspects) {
      indexes.push(
        await cache.get(
          {
            embeddingConfigId: set.embedding_config_id,
            annotationSetId: set.annotation_set_id,
            aspect,
            donorEvidence,
            backend: set.search_backend,
          },
          version,
        ),
      );
    }
    await throwIfCancelled();
    const pools = new ReferencePoolRepository(db);
    const vectors = await pools.vectorsBySequence(
      set.embedding_config_id,
      payload.queries.map((q) => q.sequence_id),
    );
    const ontology =
      options['expand_votes_to_ancestors'] === true ? await ontologyView(db, set.ontology_snapshot_id) : null;
    const frequencies = await cache.termFrequencies(set.annotation_set_id, version);
    const pending: PendingRow[] = [];
    for (const index of indexes) {
      const queries = payload.queries.filter((q) => vectors.get(q.sequence_id)?.length === index.dimensions);
      if (index.proteins.length === 0 || queries.length === 0) continue;
      const matrix = new Float32Array(queries.length * index.dimensions);
      queries.forEach((q, i) => matrix.set(vectors.get(q.sequence_id)!, i * index.dimensions));
      normalizeRows(matrix, index.dimensions);
      const hits = await index.index.search(matrix, set.limit_per_entry + SELF_MARGIN);
      queries.forEach((q, i) => {
        const neighbours = selectNeighbours({
          hits: hits[i] ?? [],
          k: set.limit_per_entry,
          queryAccession: q.accession,
          queryCanonical: splitIsoform(q.accession).canonicalAccession,
          accessionOf: (r) => index.proteins[r]!.accession,
          canonicalOf: (r) => index.proteins[r]!.canonicalAccession,
          distanceThreshold: set.distance_threshold,
        });
        const terms = transferTerms({
          neighbours,
          annotationsOf: (r) => index.annotations[r]!,
          termFrequency: (id) => frequencies.get(id) ?? 0,
          ...(ontology !== null ? { ancestorsOf: ontology.ancestorsOf, termInfo: ontology.termInfo } : {}),
        });
        for (const term of terms) {
          const ref = index.proteins[term.refIndex]!;
          pending.push({
            query: { accession: q.accession, sequenceId: q.sequence_id, taxonomyId: q.taxonomy_id ?? null },
            ref: { accession: ref.accession, sequenceId: ref.sequenceId },
            term,
          });
        }
      });
    }
    const missingVectors = payload.queries.filter((q) => !vectors.has(q.sequence_id)).length;
    await throwIfCancelled();

    const rows: PredictionRow[] = pending.map(({ query, ref, term }) => ({
      protein_accession: query.accession,
      go_term_id: term.goTermId,
      go_id: term.goId,
      aspect: term.aspect,
      distance: term.distance,
      ref_protein_accession: ref.accession,
      qualifier: term.qualifier,
      evidence_code: term.evidenceCode,
      vote_count: term.voteCount,
      k_position: term.kPosition,
      ...(options['compute_reranker_features'] !== false
        ? {
            go_term_frequency: term.goTermFrequency,
            ref_annotation_density: term.refAnnotationDensity,
            neighbor_distance_std: term.neighbourDistanceStd,
            neighbor_vote_fraction: term.neighbourVoteFraction,
          }
        : {}),
      features: {
        ...(options['compute_reranker_features'] !== false
          ? { min_distance: term.minDistance, mean_distance: term.meanDistance }
          : {}),
        ...(term.viaDescendant ? { via_descendant: true } : {}),
      },
    }));

    let alignedPairs = 0;
    if (options['compute_alignments'] !== false) {
      const features = await pairFeatureService(config).compute(
        db,
        pending.map((p) => ({ query: p.query.sequenceId, ref: p.ref.sequenceId })),
      );
      alignedPairs = features.size;
      pending.forEach((p, i) =>
        Object.assign(rows[i]!, features.get(`${p.query.sequenceId}:${p.ref.sequenceId}`) ?? {}),
      );
    }
    if (options['compute_taxonomy'] !== false) {
      // Donor taxa are read now, not from the cached index, so a re-annotated protein counts at once.
      const refTaxa = await pools.taxonomyIds([...new Set(pending.map((p) => p.ref.accession))]);
      const taxonomy = await taxonomyFeatures(
        db,
        pending.map((p) => ({ query: p.query.taxonomyId, ref: refTaxa.get(p.ref.accession) ?? null })),
      );
      pending.forEach((p, i) => Object.assign(rows[i]!, taxonomy[i]));
    }
    await addExtraFeatures({
      db,
      set,
      rows,
      pending: pending.map((p) => p.term),
      emit,
      termEmbeddingPath: config.termEmbeddingPath,
    });

    const rerankerScore = await applyReranker({ payload, options, rows, emit });

    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await emit('predict_go_terms_batch.done', null, {
      queries: payload.queries.length,
      queries_without_embedding: missingVectors,
      rows: rows.length,
      aligned_pairs: alignedPairs,
      seconds: Number(seconds.toFixed(3)),
      reranker_score: rerankerScore,
    });
    await dispatch('svc.predictions.write', PREDICTIONS_WRITE, {
      prediction_set_id: set.id,
      rows,
      query_count: payload.queries.length,
      batch_key: batchKey(payload.queries.map((q) => q.accession)),
    });
  },
});
