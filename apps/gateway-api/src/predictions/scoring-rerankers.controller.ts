import { Controller, Delete, Get, Inject, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RerankerDeletionView, RerankerView } from '@svc/contracts';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { CurrentPrincipal, Principal, Roles } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { ApiDoc } from '../http/api-doc';
import { showSources, showSourcesOfEach } from '../sources/public-sources';
import { RerankersService } from './rerankers.service';

/** A booster's URI names a server path or the store's layout: staff see it, others its file name. */
const RERANKER_SOURCES = ['artifact_uri'] as const;

/** Registered re-rankers, readable under both the scoring and the reranker-models paths. */
@ApiTags('rerankers')
@Controller()
export class ScoringRerankersController {
  constructor(
    private readonly rerankers: RerankersService,
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
  ) {}

  @ApiDoc({ summary: 'List registered re-rankers, newest first', ok: [RerankerView] })
  @Get(['scoring/rerankers', 'reranker-models'])
  @Roles('guest')
  async list(@CurrentPrincipal() who: Principal): Promise<RerankerView[]> {
    return showSourcesOfEach(await this.rerankers.list(), RERANKER_SOURCES, viewerOf(who), this.infra.config);
  }

  @ApiDoc({ summary: 'One registered re-ranker', ok: RerankerView })
  @Get(['scoring/rerankers/:id', 'reranker-models/:id'])
  @Roles('guest')
  async get(@Param('id') id: string, @CurrentPrincipal() who: Principal): Promise<RerankerView> {
    return showSources(await this.rerankers.get(id), RERANKER_SOURCES, viewerOf(who), this.infra.config);
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
