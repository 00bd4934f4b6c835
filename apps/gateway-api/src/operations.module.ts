import { Module } from '@nestjs/common';
import { MetricsController } from './metrics/metrics.controller';
import { WorkersController } from './workers/workers.controller';
import { HealthController } from './health/health.controller';

@Module({
  imports: [],
  controllers: [HealthController, MetricsController, WorkersController],
  providers: [],
  exports: [],
})
export class OperationsModule {}
