import { Controller, Delete, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { UnindexedEmbeddingsCountView, UnindexedEmbeddingsDeletionView } from '@svc/contracts';
import { Roles } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';
import { EmbeddingsService } from './embeddings.service';

@ApiTags('maintenance')
@Controller('maintenance/unindexed-embeddings')
export class EmbeddingMaintenanceController {
  constructor(private readonly embeddings: EmbeddingsService) {}

  @ApiDoc({
    summary: 'Count the embeddings no protein and no query set references',
    ok: UnindexedEmbeddingsCountView,
  })
  @Get()
  @Roles('operator')
  async count(): Promise<UnindexedEmbeddingsCountView> {
    return { count: await this.embeddings.countUnindexed() };
  }

  @ApiDoc({
    summary: 'Delete the embeddings no protein and no query set references',
    ok: UnindexedEmbeddingsDeletionView,
  })
  @Delete()
  @Roles('operator')
  async remove(): Promise<UnindexedEmbeddingsDeletionView> {
    return { deleted: await this.embeddings.deleteUnindexed() };
  }
}
