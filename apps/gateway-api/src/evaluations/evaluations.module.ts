import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { BenchmarkController } from './benchmark.controller';
import { EvaluationsController } from './evaluations.controller';
import { EvaluationsService } from './evaluations.service';
import { PredictionSetMetricsController } from './prediction-set-metrics.controller';
import { RerankService } from './rerank.service';

@Module({
  imports: [JobsModule],
  controllers: [EvaluationsController, PredictionSetMetricsController, BenchmarkController],
  providers: [EvaluationsService, RerankService],
  exports: [],
})
export class EvaluationsModule {}
