import { GENERATE_EVALUATION_SET, GenerateEvaluationSetPayload } from '@svc/contracts';
import { computeHoldoutDelta, geneCarryOver, GoGraph, withoutNkProteins } from '@svc/domain';
import { defineOperation, JobError, missingReference } from '@svc/jobs';
import { Repositories, GroundTruthRow } from '@svc/persistence';

/** The ontology snapshot of each annotation set, read together; the job fails when either set is gone. */
async function snapshotsOf(repos: Repositories, oldId: string, newId: string): Promise<[string, string]> {
  const snapshots = await repos.references.snapshotsOfAnnotationSets([oldId, newId]);
  const of = (id: string): string => {
    const snapshot = snapshots.get(id);
    if (snapshot === undefined) throw missingReference('annotation_set', id);
    return snapshot;
  };
  return [of(oldId), of(newId)];
}

/**
 * The temporal holdout between two annotation sets of one ontology snapshot: experimental evidence
 * only, NOT exclusions propagated to descendants, NK/LK/PK ground truth and the PK known terms, stored
 * with their statistics in one transaction.
 */
export const generateEvaluationSetOperation = defineOperation<GenerateEvaluationSetPayload>({
  spec: GENERATE_EVALUATION_SET,
  async execute({ job, payload, repos, emit }) {
    if (payload.old_annotation_set_id === payload.new_annotation_set_id)
      throw new JobError('same_annotation_set', 'the old and new annotation sets must differ');
    const [oldSnapshot, newSnapshot] = await snapshotsOf(
      repos,
      payload.old_annotation_set_id,
      payload.new_annotation_set_id,
    );
    if (oldSnapshot !== newSnapshot)
      throw new JobError(
        'snapshot_mismatch',
        `both annotation sets must be loaded against one ontology snapshot (old: ${oldSnapshot}, new: ${newSnapshot})`,
      );
    const graph = new GoGraph(await repos.ontologies.oboDocument(oldSnapshot));
    const oldAnnotations = await repos.annotations.holdoutAnnotations(payload.old_annotation_set_id);
    const newAnnotations = await repos.annotations.holdoutAnnotations(payload.new_annotation_set_id);
    const includeExtendedEvidence = payload.extended_evidence ?? false;
    const full = computeHoldoutDelta({
      old: oldAnnotations,
      new: newAnnotations,
      ontology: graph,
      includeExtendedEvidence,
    });
    // The specification's NK is every protein without experimental terms at t0: carry-over proteins
    // are counted, and left out only when the caller asks (`exclude_gene_carry_over: true`).
    const carried = geneCarryOver({
      nkProteins: new Set(full.groundTruth.NK.map((t) => t.protein)),
      old: oldAnnotations,
      new: newAnnotations,
      includeExtendedEvidence,
    });
    const excluded = payload.exclude_gene_carry_over === true;
    const delta = excluded ? withoutNkProteins(full, carried) : full;
    const stats = {
      ...delta.stats,
      nk_gene_carry_over: carried.size,
      gene_carry_over_excluded: excluded,
    };
    const rows: GroundTruthRow[] = [];
    for (const category of ['NK', 'LK', 'PK'] as const)
      for (const t of delta.groundTruth[category])
        rows.push({ category, protein_accession: t.protein, go_id: t.goId, aspect: t.aspect });
    for (const t of delta.known)
      rows.push({ category: 'KNOWN', protein_accession: t.protein, go_id: t.goId, aspect: t.aspect });
    const id = await repos.evaluations.createSet(
      {
        old_annotation_set_id: payload.old_annotation_set_id,
        new_annotation_set_id: payload.new_annotation_set_id,
        ontology_snapshot_id: oldSnapshot,
        job_id: job.id,
        evidence: payload.extended_evidence === true ? 'extended' : 'experimental',
        stats,
      },
      rows,
    );
    await emit('generate_evaluation_set.done', null, { evaluation_set_id: id, ...stats });
    return { evaluation_set_id: id, stats };
  },
});
