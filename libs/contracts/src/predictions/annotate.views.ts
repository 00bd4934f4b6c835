import { ApiProperty } from '@nestjs/swagger';
import { EXAMPLE_IDS, IdProperty } from '../example-ids';
import { ProvenanceWarningCodeName, ReferenceSummaryView, WarningCodesProperty } from './prediction.views';

/** Where a one-click run's results appear, as paths on the service's own origin. */
export class AnnotateLinksView {
  @ApiProperty({
    example: `/v1/query-sets/${EXAMPLE_IDS.querySet}`,
    description: 'GET: the uploaded query set',
  })
  query_set!: string;
  @ApiProperty({
    example: `/v1/jobs/${EXAMPLE_IDS.job}`,
    description:
      'GET: the prediction job (predict_go_terms); once SUCCEEDED, `result.prediction_set_id` names the set',
  })
  prediction_job!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    example: null,
    description:
      'GET: the embedding job, when the run needs one; null for the default (DIAMOND) prediction, which reads no embedding',
  })
  embedding_job!: string | null;
  @ApiProperty({
    example: `/v1/embeddings/resolve?query_set_id=${EXAMPLE_IDS.querySet}&embedding_config_id=${EXAMPLE_IDS.embeddingConfig}`,
    description: 'GET: the prediction set of this run (404 until the prediction job has made it)',
  })
  prediction_set!: string;
  @ApiProperty({
    example: `/#/annotate/${EXAMPLE_IDS.job}`,
    description: 'The dashboard page that follows the run (named by the prediction job)',
  })
  dashboard!: string;
}

export class AnnotateView {
  @IdProperty('querySet') query_set_id!: string;
  @IdProperty('job', {
    description: 'The prediction job (predict_go_terms), queued at once: follow it to the prediction set',
  })
  prediction_job_id!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    example: null,
    description:
      'The embedding job of the run, when it needs one; null when no embedding was needed (the default ' +
      'DIAMOND prediction aligns sequences and reads no embedding). Kept for clients of the embedding chain',
  })
  embedding_job_id!: string | null;
  @IdProperty('embeddingConfig', {
    description:
      "The embedding config the prediction set is recorded under (the prediction payload's embedding_config_id; " +
      'with DIAMOND nothing is embedded with it)',
  })
  embedding_config_id!: string;
  @IdProperty('annotationSet') annotation_set_id!: string;
  @IdProperty('ontologySnapshot') ontology_snapshot_id!: string;
  @ApiProperty({
    type: ReferenceSummaryView,
    description: 'The reference the proteins are annotated against (the newest annotation set, the default)',
  })
  reference!: ReferenceSummaryView;
  @ApiProperty({
    type: [String],
    example: [],
    description:
      'Plain-words warnings known before the run (a small reference, donors chosen otherwise than the calibration); the prediction job adds coverage',
  })
  warnings!: string[];
  @WarningCodesProperty() warning_codes!: ProvenanceWarningCodeName[];
  @ApiProperty({ type: AnnotateLinksView }) links!: AnnotateLinksView;
}
