import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { VisibilityName, VisibilityProperty } from '../ownership/ownership.properties';
import { EXAMPLE_IDS, IdProperty } from '../example-ids';
import { STORED_SOURCE_TEXT } from '../reference/reference.views';

const STATS_EXAMPLE = {
  delta_proteins: 412,
  delta_annotations: 1873,
  nk_proteins: 120,
  nk_annotations: 388,
  lk_proteins: 97,
  lk_annotations: 301,
  pk_proteins: 195,
  pk_annotations: 1184,
  known_annotations: 2210,
  nk_gene_carry_over: 4,
  gene_carry_over_excluded: false,
};

const METRICS_EXAMPLE = {
  NK: {
    BPO: {
      f_micro_w: 0.412,
      fmax_w: 0.398,
      precision_w: 0.44,
      recall_w: 0.39,
      coverage_w: 0.97,
      auprc_w: 0.31,
      f_micro: 0.45,
      auprc: 0.36,
      tau: 0.42,
      fmax: 0.47,
      precision: 0.5,
      recall: 0.44,
      threshold: 0.42,
      coverage: 0.97,
      n: 120,
      smin: 12.8,
    },
  },
};

/** metrics[category][aspect][metric], as results and on-demand metrics carry them. */
const METRICS_PROPERTY = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    additionalProperties: { type: 'object', additionalProperties: { type: 'number', nullable: true } },
  },
  description: 'metrics[category][aspect] -> f_micro_w, fmax, precision, recall, ...',
  example: METRICS_EXAMPLE,
} as const;

/** An evaluation set: a temporal holdout between two annotation sets. */
export class EvaluationSetView {
  @IdProperty('evaluationSet') id!: string;
  @IdProperty('annotationSet', { description: 't0: the older (reference) annotation set' })
  old_annotation_set_id!: string;
  @IdProperty('laterAnnotationSet', { description: 't1: the newer (ground-truth) annotation set' })
  new_annotation_set_id!: string;
  @IdProperty('ontologySnapshot') ontology_snapshot_id!: string;
  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'The job that generated the set',
  })
  job_id!: string | null;
  @ApiProperty({
    enum: ['experimental', 'extended'],
    example: 'experimental',
    description: 'The evidence codes counted: experimental, or the extended CAFA set',
  })
  evidence!: string;
  @ApiProperty({
    type: 'object',
    properties: {
      gene_carry_over_excluded: {
        type: 'boolean',
        description:
          'Whether the NK proteins carried over at gene level (nk_gene_carry_over of them) were left out (exclude_gene_carry_over)',
      },
    },
    additionalProperties: { type: 'number' },
    description:
      'Protein and annotation counts per category (NK, LK, PK, known terms), the NK gene carry-over count, and whether it was left out',
    example: STATS_EXAMPLE,
  })
  stats!: Record<string, number | boolean>;
  @ApiProperty({ format: 'date-time', example: '2025-03-14T09:26:53.589Z' }) created_at!: string;
}

/** An evaluation set as listed, with its labels and result count. */
export class EvaluationSetSummaryView extends EvaluationSetView {
  @ApiProperty({ example: '2025-01-01', description: "The ontology snapshot's OBO version" })
  ontology_version!: string;
  @ApiProperty({ example: 'goa 2024-01-17', description: 'Source and version of the old annotation set' })
  old_annotation_set_label!: string;
  @ApiProperty({ example: 'goa 2025-01-08', description: 'Source and version of the new annotation set' })
  new_annotation_set_label!: string;
  @ApiProperty({
    example: 3,
    description:
      "Stored evaluation results of the set that the caller's list of them shows: published ones, " +
      'and for a researcher also their own; operators and administrators count every result',
  })
  result_count!: number;
}

export class EvaluationSetDeletionView {
  @ApiProperty({ example: true }) deleted!: boolean;
  @ApiProperty({ example: 3 }) results_deleted!: number;
  @ApiProperty({ example: 12, description: 'Stored artifact files removed' }) artifacts_deleted!: number;
}

/** A stored CAFA evaluation result. */
export class EvaluationResultView {
  @IdProperty('evaluationResult') id!: string;
  @IdProperty('evaluationSet') evaluation_set_id!: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) prediction_set_id!: string | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) embedding_config_id!: string | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) scoring_config_id!: string | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) reranker_model_id!: string | null;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'Re-rankers per category and aspect: {nk|lk|pk: {bpo|mfo|cco: reranker id}}',
  })
  rerankers!: Record<string, unknown> | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) job_id!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'v226' }) band!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'lafa' }) frame!: string | null;
  @ApiProperty({ example: 0.01, description: 'Threshold step of the evaluator' }) th_step!: number;
  @ApiPropertyOptional({ nullable: true, type: Number }) max_terms!: number | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: `The IA file the run used. ${STORED_SOURCE_TEXT}`,
  })
  ia_source!: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: `The terms-of-interest file. ${STORED_SOURCE_TEXT}`,
  })
  toi_source!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) temporal_window!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) leakage_role!: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'baseline',
    description: "'reranker', or the scoring config's name",
  })
  stage!: string | null;
  @ApiProperty(METRICS_PROPERTY)
  metrics!: Record<string, Record<string, Record<string, number | null>>>;
  @ApiPropertyOptional({ nullable: true, type: String }) artifact_prefix!: string | null;
  @ApiProperty({ type: [String] }) artifact_keys!: string[];
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) owner_user_id!: string | null;
  @VisibilityProperty('public') visibility!: VisibilityName;
  @ApiProperty({ format: 'date-time', example: '2025-03-14T10:02:11.204Z' }) created_at!: string;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'baseline' })
  scoring_config_name!: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example:
      'human20 · DIAMOND, homology-blend-v1 · human-experimental · self-hits excluded · 2026-11-29 12:03',
    description:
      'The scored prediction set by name: its query set, method, reference, self-hit rule and creation minute (null once the set is gone)',
  })
  prediction_set_label!: string | null;
}

/** CAFA metrics of a prediction set on an evaluation set, computed on demand. */
export class PredictionSetMetricsView {
  @IdProperty('predictionSet') prediction_set_id!: string;
  @IdProperty('evaluationSet') evaluation_set_id!: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) scoring_config_id!: string | null;
  @ApiProperty({ example: true, description: "Whether the snapshot's IA file weighted the metrics" })
  weighted!: boolean;
  @ApiProperty(METRICS_PROPERTY)
  metrics!: Record<string, Record<string, Record<string, number | null>>>;
}

/** Pair-level metrics of a re-ranker's scores against an evaluation set's ground truth. */
export class RerankerMetricsView {
  @IdProperty('predictionSet') prediction_set_id!: string;
  @IdProperty('reranker') reranker_model_id!: string;
  @IdProperty('evaluationSet') evaluation_set_id!: string;
  @ApiProperty({ enum: ['pair'], example: 'pair' }) level!: string;
  @ApiProperty({ example: 0.58, description: 'Best F1 over the thresholds 0.01 ... 1.00' }) fmax!: number;
  @ApiPropertyOptional({ nullable: true, type: Number, example: 0.37 }) threshold!: number | null;
  @ApiProperty({ example: 0.61 }) precision!: number;
  @ApiProperty({ example: 0.55 }) recall!: number;
  @ApiProperty({ example: 0.49, description: 'Area under the precision-recall curve' }) auc_pr!: number;
  @ApiProperty({ example: 812, description: 'Pairs labelled true' }) positives!: number;
  @ApiProperty({ example: 9450, description: 'Pairs scored' }) pairs!: number;
}

export class MeanCiView {
  @ApiProperty({ example: 0.43 }) mean!: number;
  @ApiProperty({ example: 0.02, description: '95% interval half-width' }) ci95!: number;
  @ApiProperty({ example: 3 }) n!: number;
}

/** One (embedding, stage) cell of the benchmark matrix. */
export class BenchmarkCellView {
  @ApiProperty({ example: EXAMPLE_IDS.embeddingConfig }) embedding!: string;
  @ApiProperty({ example: 'esm2_t33_650M_UR50D' }) embedding_label!: string;
  @ApiProperty({ example: 'baseline' }) stage!: string;
  @ApiProperty({ example: 'Baseline' }) stage_label!: string;
  @ApiProperty({ enum: ['f_micro_w', 'fmax'], example: 'f_micro_w' }) primary_metric!: 'f_micro_w' | 'fmax';
  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'object',
      additionalProperties: { $ref: '#/components/schemas/MeanCiView' },
    },
    description: 'tasks[category][aspect] -> {mean, ci95, n}',
    example: { NK: { BPO: { mean: 0.41, ci95: 0.02, n: 3 } } },
  })
  tasks!: Record<string, Record<string, MeanCiView>>;
  @ApiProperty({ type: MeanCiView, description: 'The mean over the task means' }) per_task!: MeanCiView;
  @ApiProperty({ example: 3, description: 'Results whose values make up the cell' }) results!: number;
  @ApiProperty({ example: 0, description: 'Results left out: they hold no value of primary_metric' })
  excluded_results!: number;
}

export class BenchmarkMatrixView {
  @ApiProperty({ type: [String], example: ['NK', 'LK', 'PK'] }) categories!: string[];
  @ApiProperty({ type: [String], example: ['BPO', 'MFO', 'CCO'] }) aspects!: string[];
  @ApiProperty({ type: [String], example: ['baseline', 'reranker'] }) stages!: string[];
  @ApiProperty({ type: [String], example: [EXAMPLE_IDS.embeddingConfig] }) embeddings!: string[];
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { [EXAMPLE_IDS.evaluationSet]: 'GOA 2024-01 → 2025-01' },
  })
  evaluation_set_labels!: Record<string, string>;
  @ApiProperty({ type: [BenchmarkCellView] }) cells!: BenchmarkCellView[];
}

/** An embedding config with published evaluation results. */
export class BenchmarkEmbeddingView {
  @IdProperty('embeddingConfig') id!: string;
  @ApiProperty({ example: 'esm2_t33_650M_UR50D' }) model_name!: string;
  @ApiProperty({ example: 'esm' }) model_backend!: string;
  @ApiProperty({ example: 4, description: 'Published evaluation results' }) results!: number;
}
