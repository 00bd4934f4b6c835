import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JOB_STATUSES, JobStatus } from '../job-status';
import { SEARCH_BACKENDS, SearchBackendName } from '../operations/prediction.payloads';
import { ExpiresAtProperty, VisibilityName, VisibilityProperty } from '../ownership/ownership.properties';
import { EXAMPLE_IDS, IdProperty } from '../example-ids';

/** A GO aspect's one-letter code, as the views print it. */
export const ASPECT_CODES = ['F', 'P', 'C'] as const;
export type AspectCode = (typeof ASPECT_CODES)[number];

/** The stable codes of a prediction's warnings (the domain's `ProvenanceWarningCode`), for programs. */
export const PROVENANCE_WARNING_CODES = [
  'small_reference',
  'donor_policy_differs_from_calibration',
  'low_coverage',
] as const;
export type ProvenanceWarningCodeName = (typeof PROVENANCE_WARNING_CODES)[number];

/** `warning_codes`: one stable code per entry of `warnings`, in the same order. */
export function WarningCodesProperty(): PropertyDecorator {
  return ApiProperty({
    enum: PROVENANCE_WARNING_CODES,
    enumName: 'ProvenanceWarningCode',
    isArray: true,
    example: [],
    description:
      'One stable code per entry of `warnings`, in the same order: small_reference (fewer than 1,000 donor ' +
      'proteins), donor_policy_differs_from_calibration (donor_evidence is not the policy the blend was ' +
      'calibrated with, `reference.blend_donor_evidence`), low_coverage (most queries without a homolog)',
  });
}

/** Donor proteins of one species in a reference. */
export class DonorSpeciesView {
  @ApiProperty({ example: 'taxon:9606' }) taxon!: string;
  @ApiProperty({ example: 15398 }) proteins!: number;
}

export class DonorsPerAspectView {
  @ApiProperty({ example: 11204 }) F!: number;
  @ApiProperty({ example: 12890 }) P!: number;
  @ApiProperty({ example: 13012 }) C!: number;
}

/** What a prediction stands on: the reference it was made against (docs/prediction.md). */
export class ReferenceSummaryView {
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'human',
    description:
      'The installed reference (svc reference install) whose annotation set this is; null for one loaded by hand',
  })
  reference_name!: string | null;
  @IdProperty('ontologySnapshot') ontology_snapshot_id!: string;
  @ApiProperty({ example: 'releases/2022-07-01' }) ontology_version!: string;
  @IdProperty('annotationSet') annotation_set_id!: string;
  @ApiProperty({ example: 'goa gene2go-2022-09-12' }) annotation_set_label!: string;
  @ApiProperty({ example: 'gene2go-2022-09-12' }) annotation_source_version!: string;
  @ApiProperty({
    enum: ['experimental', 'all'],
    example: 'experimental',
    description: 'Which annotations may donate: experimental evidence codes only, or every code',
  })
  donor_evidence!: 'experimental' | 'all';
  @ApiProperty({ example: 15398, description: 'Proteins with a sequence and a donor annotation' })
  donor_proteins!: number;
  @ApiProperty({ type: DonorsPerAspectView }) donor_proteins_per_aspect!: DonorsPerAspectView;
  @ApiProperty({
    type: [DonorSpeciesView],
    description: "The donors' species, most donors first (five at most)",
  })
  donor_species!: DonorSpeciesView[];
  @ApiProperty({ example: 'diamond' }) search_backend!: string;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'homology-blend-v3',
    description: "The homology blend's version (null for the embedding backends)",
  })
  blend_version!: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    // A nullable enum lists null among its values (OpenAPI 3.0), or validators refuse a null policy.
    enum: ['experimental', 'all', null],
    example: 'experimental',
    description:
      "The donor policy the blend's calibration was fitted with (null for the embedding backends; absent on " +
      'sets made before it was recorded). When donor_evidence differs, the warning ' +
      'donor_policy_differs_from_calibration says so',
  })
  blend_donor_evidence!: 'experimental' | 'all' | null;
  @ApiProperty({
    example: true,
    description: "A query's own annotations come back as known terms (annotation mode)",
  })
  self_transfer!: boolean;
}

/** How many queries found a homolog in the reference. */
export class CoverageView {
  @ApiProperty({ example: 20 }) queries!: number;
  @ApiProperty({ example: 18 }) with_homolog!: number;
  @ApiProperty({ example: 2, description: 'Queries whose terms rest on the prior alone' })
  without_homolog!: number;
  @ApiProperty({ example: 0.1 }) without_homolog_share!: number;
  @ApiProperty({ example: 3, description: 'Queries whose own annotations are reported as known' })
  known!: number;
}

/** A prediction set as stored, with the labels of what it was made from. */
export class PredictionSetView {
  @IdProperty('predictionSet') id!: string;
  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    type: String,
    example: EXAMPLE_IDS.job,
    description: 'The predict_go_terms job that made the set',
  })
  job_id!: string | null;
  @IdProperty('embeddingConfig') embedding_config_id!: string;
  @IdProperty('annotationSet') annotation_set_id!: string;
  @IdProperty('ontologySnapshot') ontology_snapshot_id!: string;
  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    type: String,
    example: EXAMPLE_IDS.querySet,
    description: 'The query set predicted (null: every protein of the embedding config)',
  })
  query_set_id!: string | null;
  @ApiProperty({ example: 5, description: 'Neighbours kept per query' }) limit_per_entry!: number;
  @ApiPropertyOptional({ nullable: true, type: Number, example: 1.2, description: 'Largest distance kept' })
  distance_threshold!: number | null;
  @ApiProperty({ enum: SEARCH_BACKENDS, example: 'diamond' }) search_backend!: SearchBackendName;
  @ApiProperty({ example: true }) aspect_separated_knn!: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { exclude_self: true },
    description: 'The remaining options of the request',
  })
  options!: Record<string, unknown>;
  @ApiProperty({ example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' })
  feature_schema_sha!: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) reranker_model_id!: string | null;
  @ApiProperty({ example: 12, description: 'Number of query proteins' }) query_count!: number;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) owner_user_id!: string | null;
  @VisibilityProperty('public')
  visibility!: VisibilityName;
  @ExpiresAtProperty('set', { optional: true })
  expires_at!: string | null;
  @ApiProperty({ format: 'date-time', example: '2025-01-15T10:42:00.000Z' }) created_at!: string;
  @ApiProperty({ example: 'kmer-v1' }) embedding_config_name!: string;
  @ApiProperty({ example: 'kmer' }) embedding_backend!: string;
  @ApiProperty({ example: 'GOA 2025-01' }) annotation_set_label!: string;
  @ApiProperty({ example: 'releases/2025-01-01' }) ontology_version!: string;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'SUCCEEDED',
    description: `Status of the job that made the set (${JOB_STATUSES.join(', ')}); null once the job is gone`,
  })
  job_status!: JobStatus | null;
  @ApiProperty({ example: true, description: "Whether a query's own accession was left out as a donor" })
  exclude_self!: boolean;
  @ApiPropertyOptional({
    nullable: true,
    type: ReferenceSummaryView,
    description: 'The reference the set was predicted against (null on sets made before it was recorded)',
  })
  reference!: ReferenceSummaryView | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'human20',
    description: "The query set's name",
  })
  query_set_name!: string | null;
  @ApiProperty({
    example: 'human20 · DIAMOND, homology-blend-v1 · human-experimental · self-hits kept · 2026-11-29 12:03',
    description:
      'The set by name: its query set (or `all proteins`), the method (backend, blend version or embedding), the reference, the self-hit rule and the creation minute',
  })
  label!: string;
}

/** An item of the prediction-set list. */
export class PredictionSetSummaryView extends PredictionSetView {
  @ApiProperty({ example: 348 }) prediction_count!: number;
}

export class PredictionSetProteinCountView {
  @ApiProperty({ example: 'P69905' }) protein_accession!: string;
  @ApiProperty({ example: 29, description: 'Predicted terms' }) go_count!: number;
}

export class PredictionSetDetailView extends PredictionSetView {
  @ApiProperty({ example: 348 }) prediction_count!: number;
  @ApiProperty({ example: 12 }) protein_count!: number;
  @ApiPropertyOptional({
    nullable: true,
    type: CoverageView,
    description: 'Queries with and without a homolog (null on sets made before it was recorded)',
  })
  coverage!: CoverageView | null;
  @ApiProperty({
    type: [String],
    example: [
      '2 of 20 proteins (10 %) found no homolog in the reference: their terms rest on the prior alone.',
    ],
    description:
      'Plain-words warnings: a small reference, donors chosen otherwise than the calibration, most queries without a homolog',
  })
  warnings!: string[];
  @WarningCodesProperty() warning_codes!: ProvenanceWarningCodeName[];
  @ApiProperty({ type: [PredictionSetProteinCountView], description: 'Per protein, by accession' })
  proteins!: PredictionSetProteinCountView[];
}

export class PredictionSetDeletionView {
  @ApiProperty({ example: true }) deleted!: boolean;
  @ApiProperty({ example: 348 }) predictions_deleted!: number;
}

/** What a protein's terms rest on (docs/prediction.md, "What backs a prediction"). */
export class QueryBackingView {
  @ApiPropertyOptional({
    nullable: true,
    type: Number,
    example: 50,
    description:
      'Homologs (or neighbours) its terms could come from; null on sets made before it was recorded',
  })
  homologs!: number | null;
  @ApiPropertyOptional({
    nullable: true,
    type: Number,
    example: 0.87,
    description: 'Best identity among them, 0..1',
  })
  best_identity!: number | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'homology',
    description:
      'What its terms rest on: `known` (its own annotations), `homology`, or `prior` (the prior alone); null on sets made before it was recorded',
  })
  basis!: 'homology' | 'prior' | 'known' | null;
}

export class PredictionSetProteinView extends QueryBackingView {
  @ApiProperty({ example: 'P69905' }) protein_accession!: string;
  @ApiProperty({ example: 29, description: 'Predicted terms' }) go_count!: number;
  @ApiProperty({ example: 0.18 }) min_distance!: number;
  @ApiProperty({ example: 0.91 }) best_score!: number;
  @ApiProperty({ example: 14, description: "The protein's terms in the set's annotations" })
  annotation_count!: number;
  @ApiProperty({ example: 11, description: "Predicted terms the set's annotations confirm" })
  match_count!: number;
}

export class PredictionSetProteinsPageView {
  @ApiProperty({ type: [PredictionSetProteinView] }) items!: PredictionSetProteinView[];
  @ApiProperty({ example: 12 }) total!: number;
  @ApiProperty({ example: 50 }) limit!: number;
  @ApiProperty({ example: 0 }) offset!: number;
}

/** One predicted term: the 32 columns of predictions.tsv, the score and `self_hit`. */
export class PredictionRowView {
  @ApiProperty({ example: 'P69905' }) protein_accession!: string;
  @ApiProperty({ example: 'GO:0005344' }) go_id!: string;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'oxygen carrier activity' })
  go_name!: string | null;
  @ApiProperty({ enum: ASPECT_CODES, example: 'F' }) go_aspect!: AspectCode;
  @ApiProperty({ example: 0.18 }) distance!: number;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'P68871',
    description: 'The donor protein (null for a term from the prior alone)',
  })
  ref_protein_accession!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'enables' }) qualifier!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'IDA' }) evidence_code!: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number, example: 43.7 }) identity_nw!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) similarity_nw!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) alignment_score_nw!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) gaps_pct_nw!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) alignment_length_nw!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number, example: 45.1 }) identity_sw!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) similarity_sw!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) alignment_score_sw!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) gaps_pct_sw!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) alignment_length_sw!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number, example: 142 }) length_query!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number, example: 147 }) length_ref!: number | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: '9606' }) query_taxonomy_id!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: '9606' }) ref_taxonomy_id!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) taxonomic_lca!: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) taxonomic_distance!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) taxonomic_common_ancestors!: number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) taxonomic_relation!: string | null;
  @ApiProperty({ example: 3, description: 'Neighbours that carry the term' }) vote_count!: number;
  @ApiPropertyOptional({
    nullable: true,
    type: Number,
    example: 1,
    description: "Rank of the donor among the query's neighbours (null for a prior-only term)",
  })
  k_position!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) go_term_frequency!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) ref_annotation_density!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) neighbor_distance_std!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) neighbor_vote_fraction!: number | null;
  @ApiProperty({ example: 0.91, description: 'The row score, 0..1 (docs/prediction.md, "Score")' })
  score!: number;
  @ApiProperty({
    example: false,
    description: "The donor is the query's own accession or an isoform of it (annotation mode)",
  })
  self_hit!: boolean;
  @ApiProperty({
    example: false,
    description:
      "The query's own annotation in the reference (it is a reference protein, annotation mode): known, score 1, not a prediction",
  })
  known!: boolean;
  @ApiProperty({
    example: false,
    description:
      "A term the upload said is known of the query (its FASTA header's GO=, or an ancestor of one): score 1, no donor, not a prediction; left out of the CAFA and GAF downloads and of evaluations",
  })
  submitted!: boolean;
}

/** A term of a protein in the JSON download: its best row. */
export class PredictionExportTermView {
  @ApiProperty({ example: 'GO:0005344' }) go_id!: string;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'oxygen carrier activity' })
  go_name!: string | null;
  @ApiProperty({ enum: ASPECT_CODES, example: 'F' }) aspect!: AspectCode;
  @ApiProperty({ example: 0.91, description: 'The best row score of the term, 0..1' }) score!: number;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'P68871',
    description: 'The donor protein (null for a term from the prior alone)',
  })
  donor!: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number, example: 45.1 }) identity!: number | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'IDA' }) evidence_code!: string | null;
  @ApiProperty({
    enum: ['homology', 'prior', 'known', 'submitted'],
    example: 'homology',
    description:
      "known: the protein's own annotation in the reference (score 1, evidence_code as recorded); submitted: listed as known by the upload (GO=), or implied by such a term (score 1, no donor); homology: transferred from the donor; prior: the term prior alone",
  })
  source!: 'homology' | 'prior' | 'known' | 'submitted';
}

/** A protein of the JSON download, its terms best first. */
export class PredictionExportProteinView extends QueryBackingView {
  @ApiProperty({ example: 'P69905' }) protein!: string;
  @ApiProperty({ type: [PredictionExportTermView] }) terms!: PredictionExportTermView[];
}

/** The JSON download: what the set stands on, then its proteins. */
export class PredictionExportView {
  @IdProperty('predictionSet') prediction_set_id!: string;
  @ApiPropertyOptional({ nullable: true, type: ReferenceSummaryView })
  reference!: ReferenceSummaryView | null;
  @ApiPropertyOptional({ nullable: true, type: CoverageView }) coverage!: CoverageView | null;
  @ApiProperty({ type: [String], example: [] }) warnings!: string[];
  @WarningCodesProperty() warning_codes!: ProvenanceWarningCodeName[];
  @ApiProperty({ example: 0.3, description: 'Terms scoring below this were left out' }) min_score!: number;
  @ApiProperty({ type: [PredictionExportProteinView] }) proteins!: PredictionExportProteinView[];
}
