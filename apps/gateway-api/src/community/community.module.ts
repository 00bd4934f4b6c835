import { Module } from '@nestjs/common';
import { CommunityController } from './community.controller';

@Module({
  imports: [],
  controllers: [CommunityController],
  providers: [],
  exports: [],
})
export class CommunityModule {}
