import { Module } from '@nestjs/common';
import { SourcesController } from './sources.controller';
import { SourcesService } from './sources.service';

@Module({
  imports: [],
  controllers: [SourcesController],
  providers: [SourcesService],
  exports: [],
})
export class SourcesModule {}
