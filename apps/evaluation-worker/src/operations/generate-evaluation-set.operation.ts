import { GENERATE_EVALUATION_SET, GenerateEvaluationSetPayload } from '@svc/contracts';
import { computeHoldoutDelta, geneCarryOver, GoGraph, withoutNkProteins } from '@svc/domain';
import { defineOperation, JobError, missingReference } from '@svc/jobs';
import { Repositories, GroundTruthRow } from '@svc/persistence';

/** The ontology snapshot an annotation set was loaded against; the job fails when the set is gone. */
async function annotationSet(repos: Repositories, id: string): Promise<{ ontology_snapshot_id: string }> {
  const snapshot = (await repos.references.snapshotsOfAnnotationSets([id])).get(id.toLowerCase());
  if (snapshot === undefined) throw missingReference('annotation_set', id);
  return { ontology_snapshot_id: snapshot };
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
    const old = await annotationSet(repos, payload.old_annotation_set_id);
    const next = await annotationSet(repos, payload.new_annotation_set_id);
    if (old.ontology_snapshot_id !== next.ontology_snapshot_id)
      throw new JobError(
        'snapshot_mismatch',
        `both annotation sets must be loaded against one ontology snapshot (old: ${old.ontology_snapshot_id}, new: ${next.ontology_snapshot_id})`,
      );
    const graph = new GoGraph(await repos.ontologies.oboDocument(old.ontology_snapshot_id));
    const oldAnnotations = await repos.annotations.holdoutAnnotations(payload.old_annotation_set_id);
    const newAnnotations = await repos.annotations.holdoutAnnotations(payload.new_annotation_set_id);
    const includeExtendedEvidence = payload.extended_evidence ?? false;
    const full = computeHoldoutDelta({
      old: oldAnnotations,
      new: newAnnotations,
      ontology: graph,
      includeExtendedEvidence,
    });
    const carried =
      payload.exclude_gene_carry_over === false
        ? new Set<string>()
        : geneCarryOver({
            nkProteins: new Set(full.groundTruth.NK.map((t) => t.protein)),
            old: oldAnnotations,
            new: newAnnotations,
            includeExtendedEvidence,
          });
    const delta = withoutNkProteins(full, carried);
    const stats = { ...delta.stats, nk_gene_carry_over: carried.size };
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
        ontology_snapshot_id: old.ontology_snapshot_id,
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
