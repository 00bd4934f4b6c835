import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ExportResearchDatasetPayload,
  ImportDatasetByReferenceRequest,
  ListDatasetsQuery,
  QueuedJobView,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, RateLimit, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { DatasetsService } from './datasets.service';

@ApiTags('datasets')
@Controller('datasets')
export class DatasetsController {
  constructor(private readonly datasets: DatasetsService) {}

  /** Queues export_research_dataset; the body is its payload (CreateDatasetRequest). */
  @Post()
  @HttpCode(201)
  @Roles('operator')
  @RateLimit('post_datasets')
  create(
    @ValidBody() body: ExportResearchDatasetPayload,
    @CurrentPrincipal() who: Principal,
  ): Promise<QueuedJobView> {
    return this.datasets.export(body, who);
  }

  @Post('import-by-reference')
  @HttpCode(201)
  @Roles('operator')
  importByReference(@ValidBody() body: ImportDatasetByReferenceRequest, @CurrentPrincipal() who: Principal) {
    return this.datasets.importByReference(body, who);
  }

  @Get()
  @Roles('guest')
  list(@ValidQuery() query: ListDatasetsQuery, @CurrentPrincipal() who: Principal) {
    return this.datasets.list(query, viewerOf(who));
  }

  @Get(':idOrName')
  @Roles('guest')
  get(@Param('idOrName') idOrName: string, @CurrentPrincipal() who: Principal) {
    return this.datasets.get(idOrName, viewerOf(who));
  }
}
