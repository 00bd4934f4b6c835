import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  DomainError,
  FETCH_UNIPROT_METADATA,
  FetchUniprotMetadataPayload,
  INSERT_PROTEINS,
  InsertProteinsPayload,
  ListProteinsQuery,
  ProteinAnnotationsQuery,
  ProteinAnnotationView,
  ProteinDetailView,
  ProteinPageView,
  ProteinStatsView,
  QueuedJobView,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { ApiDoc, QueueDoc } from '../http/api-doc';
import { JobsService } from '../jobs/jobs.service';
import { ReferenceService } from './reference.service';

@ApiTags('proteins')
@Controller('proteins')
export class ProteinsController {
  constructor(
    private readonly reference: ReferenceService,
    private readonly jobs: JobsService,
  ) {}

  @ApiDoc({ summary: 'List proteins, by accession, with search and filters', ok: ProteinPageView })
  @Get()
  @Roles('guest')
  list(@ValidQuery() query: ListProteinsQuery) {
    return this.reference.listProteins(query);
  }

  @ApiDoc({
    summary: 'Protein, sequence, metadata, annotation and embedding counts (cached)',
    ok: ProteinStatsView,
  })
  @Get('stats')
  @Roles('guest')
  stats() {
    return this.reference.proteinStats.get();
  }

  @QueueDoc('Queue insert_proteins (a UniProt search or a source file)')
  @Post('insert')
  @HttpCode(201)
  @Roles('operator')
  insert(
    @ValidBody() body: InsertProteinsPayload,
    @CurrentPrincipal() who: Principal,
  ): Promise<QueuedJobView> {
    if (body.search_criteria === undefined && body.source_url === undefined) {
      throw new DomainError('validation_error', 'give search_criteria or source_url', {}, [
        { path: 'search_criteria', message: 'search_criteria or source_url is required' },
      ]);
    }
    return this.jobs.dispatch(INSERT_PROTEINS, body, who);
  }

  @QueueDoc('Queue fetch_uniprot_metadata for stored proteins')
  @Post('fetch-metadata')
  @HttpCode(201)
  @Roles('researcher')
  fetchMetadata(
    @ValidBody() body: FetchUniprotMetadataPayload,
    @CurrentPrincipal() who: Principal,
  ): Promise<QueuedJobView> {
    return this.jobs.dispatch(FETCH_UNIPROT_METADATA, body, who);
  }

  @ApiDoc({
    summary: 'One protein: its fields, UniProt metadata, counts and isoforms',
    ok: ProteinDetailView,
  })
  @Get(':accession')
  @Roles('guest')
  detail(@Param('accession') accession: string) {
    return this.reference.proteins.detail(accession);
  }

  @ApiDoc({ summary: "A protein's GO annotations (every set, or one)", ok: [ProteinAnnotationView] })
  @Get(':accession/annotations')
  @Roles('guest')
  annotations(@Param('accession') accession: string, @ValidQuery() query: ProteinAnnotationsQuery) {
    return this.reference.proteinAnnotations(accession, query.annotation_set_id);
  }
}
