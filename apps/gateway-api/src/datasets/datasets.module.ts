import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { DatasetsController } from './datasets.controller';
import { DatasetsService } from './datasets.service';

@Module({
  imports: [JobsModule],
  controllers: [DatasetsController],
  providers: [DatasetsService],
  exports: [],
})
export class DatasetsModule {}
