import { Module } from '@nestjs/common';
import { ExperimentRunsController } from './experiment-runs.controller';
import { ExperimentRunsService } from './experiment-runs.service';

@Module({
  imports: [],
  controllers: [ExperimentRunsController],
  providers: [ExperimentRunsService],
  exports: [],
})
export class ExperimentsModule {}
