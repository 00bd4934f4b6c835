import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { ReferenceModule } from '../reference/reference.module';
import { AnnotateController } from './annotate.controller';
import { AnnotateService } from './annotate.service';
import { PredictionsController } from './predictions.controller';
import { PredictionsService } from './predictions.service';
import { RerankerModelsController } from './reranker-models.controller';
import { RerankersService } from './rerankers.service';
import { ScoringRerankersController } from './scoring-rerankers.controller';
import { ScoringController } from './scoring.controller';
import { ScoringService } from './scoring.service';

@Module({
  imports: [JobsModule, ReferenceModule],
  controllers: [
    PredictionsController,
    ScoringController,
    AnnotateController,
    RerankerModelsController,
    ScoringRerankersController,
  ],
  providers: [PredictionsService, ScoringService, AnnotateService, RerankersService],
  exports: [PredictionsService],
})
export class PredictionsModule {}
