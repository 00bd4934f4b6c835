import { Controller, Delete, Get, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  DeltaProteinsQuery,
  GenerateEvaluationSetPayload,
  MineQuery,
  PredictionSetMetricsQuery,
  RerankQuery,
  RunEvaluationRequest,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { EvaluationsService } from './evaluations.service';
import { RerankService } from './rerank.service';

@ApiTags('evaluations')
@Controller('annotations/evaluation-sets')
export class EvaluationsController {
  constructor(private readonly evaluations: EvaluationsService) {}

  @Post('generate')
  @HttpCode(201)
  @Roles('operator')
  generate(@ValidBody() body: GenerateEvaluationSetPayload, @CurrentPrincipal() who: Principal) {
    return this.evaluations.generate(body, who);
  }

  @Get()
  @Roles('guest')
  list() {
    return this.evaluations.list();
  }

  @Get(':id')
  @Roles('guest')
  get(@Param('id') id: string) {
    return this.evaluations.get(id);
  }

  @Delete(':id')
  @Roles('operator')
  remove(@Param('id') id: string) {
    return this.evaluations.delete(id);
  }

  @Get(':id/ground-truth-NK.tsv')
  @Roles('guest')
  groundTruthNk(@Param('id') id: string): Promise<StreamableFile> {
    return this.evaluations.groundTruthTsv(id, 'NK');
  }

  @Get(':id/ground-truth-LK.tsv')
  @Roles('guest')
  groundTruthLk(@Param('id') id: string): Promise<StreamableFile> {
    return this.evaluations.groundTruthTsv(id, 'LK');
  }

  @Get(':id/ground-truth-PK.tsv')
  @Roles('guest')
  groundTruthPk(@Param('id') id: string): Promise<StreamableFile> {
    return this.evaluations.groundTruthTsv(id, 'PK');
  }

  @Get(':id/known-terms.tsv')
  @Roles('guest')
  knownTerms(@Param('id') id: string): Promise<StreamableFile> {
    return this.evaluations.groundTruthTsv(id, 'KNOWN');
  }

  @Get(':id/delta-proteins.fasta')
  @Roles('guest')
  deltaProteins(@Param('id') id: string, @ValidQuery() query: DeltaProteinsQuery): Promise<StreamableFile> {
    return this.evaluations.deltaFasta(id, query.category);
  }

  @Post(':id/run')
  @HttpCode(201)
  @Roles('operator')
  run(@Param('id') id: string, @ValidBody() body: RunEvaluationRequest, @CurrentPrincipal() who: Principal) {
    return this.evaluations.run(id, body, who);
  }

  @Get(':id/results')
  @Roles('guest')
  results(@Param('id') id: string, @ValidQuery() query: MineQuery, @CurrentPrincipal() who: Principal) {
    return this.evaluations.results(id, viewerOf(who), query.mine ?? false);
  }

  @Get(':id/results/:rid/metrics.tsv')
  @Roles('guest')
  metricsTsv(
    @Param('id') id: string,
    @Param('rid') rid: string,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.evaluations.metricsTsv(id, rid, viewerOf(who));
  }

  @Get(':id/results/:rid/artifacts.zip')
  @Roles('guest')
  artifactsZip(
    @Param('id') id: string,
    @Param('rid') rid: string,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.evaluations.artifactsZip(id, rid, viewerOf(who));
  }

  @Delete(':id/results/:rid')
  @HttpCode(204)
  @Roles('operator')
  async removeResult(
    @Param('id') id: string,
    @Param('rid') rid: string,
    @CurrentPrincipal() who: Principal,
  ): Promise<void> {
    await this.evaluations.deleteResult(id, rid, viewerOf(who));
  }
}

@ApiTags('scoring')
@Controller('scoring/prediction-sets')
export class PredictionSetMetricsController {
  constructor(
    private readonly evaluations: EvaluationsService,
    private readonly rerank: RerankService,
  ) {}

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

  /** Rows re-scored by a re-ranker (`reranker_id`, default the set's bound one), streamed. */
  @Get(':id/rerank.tsv')
  @Roles('guest')
  rerankTsv(
    @Param('id') id: string,
    @ValidQuery() query: RerankQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.rerank.rerankTsv(id, query.reranker_id, viewerOf(who));
  }

  @Get(':id/reranker-metrics')
  @Roles('guest')
  rerankerMetrics(
    @Param('id') id: string,
    @ValidQuery() query: RerankQuery,
    @CurrentPrincipal() who: Principal,
  ) {
    return this.rerank.rerankerMetrics(id, query.reranker_id, query.evaluation_set_id, viewerOf(who));
  }

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

@ApiTags('benchmark')
@Controller('benchmark')
export class BenchmarkController {
  constructor(private readonly evaluations: EvaluationsService) {}

  @Get('matrix')
  @Roles('guest')
  matrix() {
    return this.evaluations.matrix();
  }

  @Get('embeddings')
  @Roles('guest')
  embeddings() {
    return this.evaluations.benchmarkEmbeddings();
  }
}
