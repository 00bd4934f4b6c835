import { Controller, Delete, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RerankerDeletionView, RerankerView } from '@svc/contracts';
import { Roles } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';
import { RerankersService } from './rerankers.service';

/** Registered re-rankers, readable under both the scoring and the reranker-models paths. */
@ApiTags('rerankers')
@Controller()
export class ScoringRerankersController {
  constructor(private readonly rerankers: RerankersService) {}

  @ApiDoc({ summary: 'List registered re-rankers, newest first', ok: [RerankerView] })
  @Get(['scoring/rerankers', 'reranker-models'])
  @Roles('guest')
  list(): Promise<RerankerView[]> {
    return this.rerankers.list();
  }

  @ApiDoc({ summary: 'One registered re-ranker', ok: RerankerView })
  @Get(['scoring/rerankers/:id', 'reranker-models/:id'])
  @Roles('guest')
  get(@Param('id') id: string): Promise<RerankerView> {
    return this.rerankers.get(id);
  }

  @ApiDoc({
    summary: 'Delete a re-ranker (and its uploaded booster)',
    ok: RerankerDeletionView,
  })
  @Delete('scoring/rerankers/:id')
  @Roles('operator')
  remove(@Param('id') id: string): Promise<RerankerDeletionView> {
    return this.rerankers.delete(id);
  }
}
