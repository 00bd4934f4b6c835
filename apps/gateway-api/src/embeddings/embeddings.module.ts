import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { PredictionsModule } from '../predictions/predictions.module';
import { EmbeddingMaintenanceController } from './embedding-maintenance.controller';
import { EmbeddingsController } from './embeddings.controller';
import { EmbeddingsService } from './embeddings.service';

@Module({
  imports: [JobsModule, PredictionsModule],
  controllers: [EmbeddingsController, EmbeddingMaintenanceController],
  providers: [EmbeddingsService],
  exports: [],
})
export class EmbeddingsModule {}
