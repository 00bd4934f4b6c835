import { Controller, Get, Param, Res, StreamableFile } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiTags } from '@nestjs/swagger';
import {
  PredictionSetMetricsQuery,
  PredictionSetMetricsView,
  RerankerMetricsView,
  RerankQuery,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { ApiDoc } from '../http/api-doc';
import { EvaluationsService } from './evaluations.service';
import { RerankService } from './rerank.service';

@ApiTags('scoring')
@Controller('scoring/prediction-sets')
export class PredictionSetMetricsController {
  constructor(
    private readonly evaluations: EvaluationsService,
    private readonly rerank: RerankService,
  ) {}

  @ApiDoc({
    summary: 'CAFA metrics of a prediction set on an evaluation set, computed now (nothing stored)',
    ok: PredictionSetMetricsView,
  })
  @Get(':id/metrics')
  @Roles('guest')
  metrics(
    @Param('id') id: string,
    @ValidQuery() query: PredictionSetMetricsQuery,
    @CurrentPrincipal() who: Principal,
  ) {
    return this.evaluations.predictionSetMetrics(
      id,
      query.evaluation_set_id,
      query.scoring_config_id,
      viewerOf(who),
    );
  }

  /**
   * Rows re-scored by a re-ranker (`reranker_id`, default the set's bound one), streamed. A re-ranker
   * of another feature schema falls back to the KNN order with the rows' own scores, and says so in
   * the `X-Reranker-Fallback: knn` and `X-Svc-Warning` headers.
   */
  @ApiDoc({
    summary: "The set's rows re-scored by a re-ranker (KNN order when its feature schema differs)",
    ok: {
      file: 'text/tab-separated-values',
      example:
        'protein_accession\tgo_id\tgo_aspect\treranker_score\tdistance\tref_protein_accession\n' +
        'P69905\tGO:0005833\tC\t0.8731\t0.0412\tP01942\n' +
        'P69905\tGO:0019825\tF\t0.7954\t0.0412\tP01942\n',
    },
    problems: [409],
  })
  @Get(':id/rerank.tsv')
  @Roles('guest')
  async rerankTsv(
    @Param('id') id: string,
    @ValidQuery() query: RerankQuery,
    @CurrentPrincipal() who: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile> {
    const { file, fallback } = await this.rerank.rerankTsv(id, query.reranker_id, viewerOf(who));
    if (fallback !== null) {
      void reply.header('x-reranker-fallback', 'knn');
      void reply.header('x-svc-warning', fallback);
    }
    return file;
  }

  @ApiDoc({
    summary: "Pair-level Fmax and AUC-PR of a re-ranker's scores against an evaluation set",
    ok: RerankerMetricsView,
    problems: [409],
  })
  @Get(':id/reranker-metrics')
  @Roles('guest')
  rerankerMetrics(
    @Param('id') id: string,
    @ValidQuery() query: RerankQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<RerankerMetricsView> {
    return this.rerank.rerankerMetrics(id, query.reranker_id, query.evaluation_set_id, viewerOf(who));
  }

  @ApiDoc({
    summary: "The set's rows labelled against an evaluation set's ground truth, for training a re-ranker",
    ok: {
      file: 'text/tab-separated-values',
      example:
        'protein_accession\tgo_id\taspect\tlabel\tdistance\tref_protein_accession\tqualifier\tevidence_code\tidentity_nw\tsimilarity_nw\talignment_score_nw\tgaps_pct_nw\talignment_length_nw\tidentity_sw\tsimilarity_sw\talignment_score_sw\tgaps_pct_sw\talignment_length_sw\tlength_query\tlength_ref\tquery_taxonomy_id\tref_taxonomy_id\ttaxonomic_lca\ttaxonomic_distance\ttaxonomic_common_ancestors\ttaxonomic_relation\tvote_count\tk_position\tgo_term_frequency\tref_annotation_density\tneighbor_distance_std\n' +
        'P69905\tGO:0005833\tC\t1\t0.0412\tP01942\tenables\tIDA\t0.87\t0.93\t612\t0.7\t142\t0.88\t0.94\t615\t0\t141\t142\t142\t9606\t10090\t40674\t4\t20\trelated\t5\t1\t37\t14\t0.0123\n',
    },
  })
  @Get(':id/training-data.tsv')
  @Roles('guest')
  trainingData(
    @Param('id') id: string,
    @ValidQuery() query: RerankQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.rerank.trainingTsv(id, query.evaluation_set_id, viewerOf(who));
  }
}
