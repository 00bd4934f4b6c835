import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { AnnotationsController } from './annotations.controller';
import { MaintenanceController } from './maintenance.controller';
import { ProteinsController } from './proteins.controller';
import { QuerySetsController } from './query-sets.controller';
import { ReferencesController } from './references.controller';
import { FastaUploadPolicy } from './fasta-upload-policy';
import { ReferenceService } from './reference.service';

@Module({
  imports: [JobsModule],
  controllers: [
    ProteinsController,
    AnnotationsController,
    QuerySetsController,
    MaintenanceController,
    ReferencesController,
  ],
  providers: [ReferenceService, FastaUploadPolicy],
  exports: [ReferenceService, FastaUploadPolicy],
})
export class ReferenceModule {}
