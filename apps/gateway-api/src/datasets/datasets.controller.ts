import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  DatasetView,
  ExportResearchDatasetPayload,
  ImportDatasetByReferenceRequest,
  ListDatasetsQuery,
  QueuedJobView,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, RateLimit, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { ApiDoc, QueueDoc } from '../http/api-doc';
import { DatasetsService } from './datasets.service';

@ApiTags('datasets')
@Controller('datasets')
export class DatasetsController {
  constructor(private readonly datasets: DatasetsService) {}

  /** Queues export_research_dataset; the body is its payload (CreateDatasetRequest). */
  @QueueDoc('Queue export_research_dataset (a train/eval dataset built from annotation-set versions)')
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

  @ApiDoc({
    summary: 'Register a dataset whose files are already in the artifact store',
    ok: DatasetView,
    problems: [409],
  })
  @Post('import-by-reference')
  @HttpCode(201)
  @Roles('operator')
  importByReference(
    @ValidBody() body: ImportDatasetByReferenceRequest,
    @CurrentPrincipal() who: Principal,
  ): Promise<DatasetView> {
    return this.datasets.importByReference(body, who);
  }

  @ApiDoc({ summary: "List the caller's datasets (all of them for staff), newest first", ok: [DatasetView] })
  @Get()
  @Roles('guest')
  list(@ValidQuery() query: ListDatasetsQuery, @CurrentPrincipal() who: Principal): Promise<DatasetView[]> {
    return this.datasets.list(query, viewerOf(who));
  }

  @ApiDoc({ summary: 'One dataset, by id or name', ok: DatasetView })
  @Get(':idOrName')
  @Roles('guest')
  get(@Param('idOrName') idOrName: string, @CurrentPrincipal() who: Principal): Promise<DatasetView> {
    return this.datasets.get(idOrName, viewerOf(who));
  }
}
