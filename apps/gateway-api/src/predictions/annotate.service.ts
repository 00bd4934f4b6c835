import { Inject, Injectable } from '@nestjs/common';
import {
  AnnotateLinksView,
  AnnotateView,
  DomainError,
  DONOR_EVIDENCE,
  type DonorEvidence,
  hasRoleAtLeast,
  PREDICT_GO_TERMS,
} from '@svc/contracts';
import { blendModelFor } from '@svc/go-transfer';
import {
  canonicalizeEmbeddingConfig,
  defaultDonorEvidence,
  FastaResult,
  provenanceWarningCodes,
  provenanceWarnings,
  type ReferenceSummary,
} from '@svc/domain';
import {
  AnnotationRepository,
  EmbeddingRepository,
  PredictionProvenanceRepository,
  ReferenceBundleRepository,
  ReferencePoolRepository,
} from '@svc/persistence';
import { Principal } from '@svc/platform';
import { GATEWAY_AUTH, GatewayAuth } from '../auth/guards';
import { JobsService } from '../jobs/jobs.service';
import { ReferenceService } from '../reference/reference.service';

/** The embedding config one-click annotation records its set under when no config has embeddings yet. */
const DEFAULT_CONFIG = { model_name: 'kmer-v1', model_backend: 'kmer', description: 'default k-mer recipe' };

/** Where a one-click run's results appear, as paths on the service's own origin. */
export type AnnotateLinks = AnnotateLinksView;

export type AnnotateResponse = AnnotateView;

export function annotateLinks(input: {
  querySetId: string;
  predictionJobId: string;
  embeddingConfigId: string;
}): AnnotateLinks {
  const query = new URLSearchParams({
    query_set_id: input.querySetId,
    embedding_config_id: input.embeddingConfigId,
  });
  return {
    query_set: `/v1/query-sets/${input.querySetId}`,
    prediction_job: `/v1/jobs/${input.predictionJobId}`,
    embedding_job: null,
    prediction_set: `/v1/embeddings/resolve?${query.toString()}`,
    dashboard: `/#/annotate/${input.predictionJobId}`,
  };
}

/**
 * One-click annotation: FASTA in, a query set, and its GO-term prediction queued at once against the
 * default reference. The prediction aligns with DIAMOND (the default backend), which reads sequences,
 * not embeddings, so nothing is embedded: the set is recorded under the config with the most
 * embeddings, which the prediction's contract names. The prediction keeps the query's own accession
 * as a donor (`exclude_self: false`): an annotated reference is the best answer a user can get for
 * its own sequence, and its rows say so (`self_hit`).
 */
@Injectable()
export class AnnotateService {
  constructor(
    @Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth,
    private readonly jobs: JobsService,
    private readonly reference: ReferenceService,
    private readonly referencePools: ReferencePoolRepository,
    private readonly annotations: AnnotationRepository,
    private readonly embeddings: EmbeddingRepository,
    private readonly provenance: PredictionProvenanceRepository,
    private readonly bundles: ReferenceBundleRepository,
  ) {}

  /** The default reference as the prediction will see it, kept a minute per annotation set and donor policy. */
  private readonly described = new Map<string, { at: number; reference: Promise<ReferenceSummary | null> }>();

  private describe(annotationSetId: string, donorEvidence: DonorEvidence): Promise<ReferenceSummary | null> {
    const key = `${annotationSetId}|${donorEvidence}`;
    const cached = this.described.get(key);
    if (cached !== undefined && Date.now() - cached.at < 60_000) return cached.reference;
    const blend = blendModelFor(donorEvidence);
    const reference = this.provenance.describeReference(annotationSetId, donorEvidence).then((stored) =>
      stored === null
        ? null
        : {
            ...stored,
            search_backend: 'diamond',
            blend_version: blend.version,
            blend_donor_evidence: blend.donor_evidence,
            self_transfer: true,
          },
    );
    reference.catch(() => this.described.delete(key));
    this.described.clear();
    this.described.set(key, { at: Date.now(), reference });
    return reference;
  }

  async annotate(input: {
    name: string;
    fasta: FastaResult;
    /** The upload's `taxon` field: the taxon of the records without OX= (422 unless an NCBI id). */
    taxon?: string | null;
    /** The upload's `donor_evidence` field: experimental or all (422 otherwise); empty = the reference's. */
    donorEvidence?: string | null;
    saveHistory: boolean;
    principal: Principal | undefined;
  }): Promise<AnnotateResponse> {
    this.checkSaveHistory(input.saveHistory, input.principal);
    // Refused before anything is stored or charged.
    const asked = donorEvidenceField(input.donorEvidence);
    const target = await this.pickAnnotationSet();
    const donorEvidence = asked ?? defaultDonorEvidence(target.reference_name);
    const config = await this.pickEmbeddingConfig();
    // A bad file is refused (422, nothing stored) before any quota is charged.
    const upload = this.reference.prepareQuerySetUpload({
      name: input.name,
      description: input.saveHistory ? 'one-click annotation' : 'one-click annotation (not saved to history)',
      fasta: input.fasta,
      taxon: input.taxon ?? null,
    });
    // A prediction over an empty reference pool would answer nothing: say what an operator must run.
    // The prediction aligns with DIAMOND (the default backend), so the pool is the annotated proteins
    // with a sequence; no reference embedding is needed.
    if (!(await this.referencePools.hasSequenceReferences(target.annotation_set_id)))
      throw new DomainError(
        'conflict',
        `annotation set ${target.annotation_set_id} annotates no protein with a sequence; an operator must load the reference proteins with their sequences (insert_proteins or fetch_uniprot_metadata) first`,
      );
    const reference = await this.describe(target.annotation_set_id, donorEvidence);
    if (reference === null) throw new DomainError('not_found', 'Annotation set not found');
    // The set has proteins, but none the donor rule lets donate (a set of electronic annotations
    // under the experimental rule): the prediction would have nothing to transfer from.
    if (reference.donor_proteins === 0)
      throw new DomainError(
        'conflict',
        `annotation set ${target.annotation_set_id} has no donor protein under donor_evidence "${donorEvidence}"` +
          (donorEvidence === 'experimental'
            ? ': none of its proteins has an annotation with an experimental evidence code; annotate with donor_evidence "all" to transfer its other annotations'
            : ''),
      );
    const sequences = upload.entries.length;
    if (input.principal !== undefined)
      await this.auth.limits.consumeDaily(input.principal, 'annotate_sequences', sequences);
    let querySet: { id: string };
    let job: { id: string };
    try {
      querySet = await this.reference.saveQuerySetUpload(
        upload,
        this.reference.ownershipFor(input.principal, input.saveHistory),
      );
      // One job on the caller's daily job quota; its sequences were charged by the upload above.
      job = await this.jobs.dispatch(
        PREDICT_GO_TERMS,
        {
          embedding_config_id: config,
          annotation_set_id: target.annotation_set_id,
          ontology_snapshot_id: target.ontology_snapshot_id,
          query_set_id: querySet.id,
          exclude_self: false,
          donor_evidence: donorEvidence,
        },
        input.principal,
        {
          via: 'annotate',
          saveHistory: input.saveHistory,
          sequencesCharged: true,
          meta: { annotate: { save_history: input.saveHistory } },
        },
      );
    } catch (error) {
      // Nothing was queued: the sequences are not charged.
      if (input.principal !== undefined)
        await this.auth.limits.releaseDaily(input.principal, 'annotate_sequences', sequences);
      throw error;
    }
    return {
      query_set_id: querySet.id,
      prediction_job_id: job.id,
      embedding_job_id: null,
      embedding_config_id: config,
      annotation_set_id: target.annotation_set_id,
      ontology_snapshot_id: target.ontology_snapshot_id,
      reference,
      warnings: provenanceWarnings(reference, null),
      warning_codes: provenanceWarningCodes(reference, null),
      links: annotateLinks({ querySetId: querySet.id, predictionJobId: job.id, embeddingConfigId: config }),
    };
  }

  /** save_history=true needs a researcher account: checked before the upload is read. */
  checkSaveHistory(saveHistory: boolean, principal: Principal | undefined): void {
    const role = principal?.role ?? 'guest';
    if (saveHistory && !hasRoleAtLeast(role, 'researcher')) {
      throw role === 'guest' && principal?.kind !== 'gate_disabled'
        ? new DomainError('unauthorized', 'save_history=true needs a signed-in researcher account')
        : new DomainError('forbidden', 'save_history=true needs role researcher');
    }
  }

  /**
   * The default reference: the newest installed one (`svc reference install`), else the newest
   * annotation set that has annotations; the answer's `reference` names which.
   */
  private async pickAnnotationSet(): Promise<{
    annotation_set_id: string;
    ontology_snapshot_id: string;
    /** The installed reference's name; null for an annotation set loaded by hand. */
    reference_name: string | null;
  }> {
    const installed = await this.bundles.newest();
    if (installed !== null)
      return {
        annotation_set_id: installed.annotation_set_id,
        ontology_snapshot_id: installed.ontology_snapshot_id,
        reference_name: installed.name,
      };
    const row = await this.annotations.newestNonEmptySet();
    if (row === null)
      throw new DomainError(
        'conflict',
        'no annotation set is loaded yet; an operator must load GO annotations first',
      );
    return { ...row, reference_name: null };
  }

  /**
   * The config the set is recorded under: the one with the most stored embeddings (where an embedding
   * search of the same query set would look), else the default recipe. Nothing is embedded with it.
   */
  private async pickEmbeddingConfig(): Promise<string> {
    const best = await this.embeddings.mostEmbeddedConfig();
    if (best !== null) return best;
    const canonical = canonicalizeEmbeddingConfig(DEFAULT_CONFIG);
    if ('errors' in canonical)
      throw new Error(`default embedding config is invalid: ${canonical.errors.join('; ')}`);
    return (await this.embeddings.saveConfig(canonical.config)).config.id;
  }
}

/** The `donor_evidence` form field: a policy, or null when absent or empty (the reference's default). */
export function donorEvidenceField(text: string | null | undefined): DonorEvidence | null {
  const value = text?.trim() ?? '';
  if (value === '') return null;
  const policy = DONOR_EVIDENCE.find((p) => p === value);
  if (policy !== undefined) return policy;
  throw new DomainError(
    'validation_error',
    `donor_evidence must be experimental or all, not ${JSON.stringify(value.slice(0, 40))}`,
    {},
    [{ path: 'donor_evidence', message: 'donor_evidence must be experimental or all' }],
  );
}
