import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  BUILD_GO_COOCCURRENCE,
  DomainError,
  FETCH_UNIPROT_METADATA,
  FetchUniprotMetadataPayload,
  INSERT_PROTEINS,
  InsertProteinsPayload,
  ListAnnotationSetsQuery,
  ListProteinsQuery,
  LOAD_GOA_ANNOTATIONS,
  LOAD_ONTOLOGY_SNAPSHOT,
  LOAD_QUICKGO_ANNOTATIONS,
  LoadGoaAnnotationsPayload,
  LoadOntologySnapshotPayload,
  LoadQuickGoAnnotationsPayload,
  MineQuery,
  ProteinAnnotationsQuery,
  QueuedJobView,
  SetIaUrlRequest,
  SubgraphQuery,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { JobsService } from '../jobs/jobs.service';
import { MultipartBody } from '../http/multipart-body';
import { readMultipart } from './multipart';
import { ReferenceService } from './reference.service';

@ApiTags('proteins')
@Controller('proteins')
export class ProteinsController {
  constructor(
    private readonly reference: ReferenceService,
    private readonly jobs: JobsService,
  ) {}

  @Get()
  @Roles('guest')
  list(@ValidQuery() query: ListProteinsQuery) {
    return this.reference.listProteins(query);
  }

  @Get('stats')
  @Roles('guest')
  stats() {
    return this.reference.proteinStats.get();
  }

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

  @Post('fetch-metadata')
  @HttpCode(201)
  @Roles('researcher')
  fetchMetadata(
    @ValidBody() body: FetchUniprotMetadataPayload,
    @CurrentPrincipal() who: Principal,
  ): Promise<QueuedJobView> {
    return this.jobs.dispatch(FETCH_UNIPROT_METADATA, body, who);
  }

  @Get(':accession')
  @Roles('guest')
  detail(@Param('accession') accession: string) {
    return this.reference.proteins.detail(accession);
  }

  @Get(':accession/annotations')
  @Roles('guest')
  annotations(@Param('accession') accession: string, @ValidQuery() query: ProteinAnnotationsQuery) {
    return this.reference.proteinAnnotations(accession, query.annotation_set_id);
  }
}

@ApiTags('annotations')
@Controller('annotations')
export class AnnotationsController {
  constructor(
    private readonly reference: ReferenceService,
    private readonly jobs: JobsService,
  ) {}

  @Get('snapshots')
  @Roles('guest')
  snapshots() {
    return this.reference.ontology.list();
  }

  @Post('snapshots/load')
  @HttpCode(201)
  @Roles('operator')
  loadSnapshot(@ValidBody() body: LoadOntologySnapshotPayload, @CurrentPrincipal() who: Principal) {
    return this.jobs.dispatch(LOAD_ONTOLOGY_SNAPSHOT, body, who);
  }

  @Get('snapshots/:id')
  @Roles('guest')
  snapshot(@Param('id') id: string) {
    return this.reference.snapshot(id);
  }

  @Get('snapshots/:id/subgraph')
  @Roles('guest')
  subgraph(@Param('id') id: string, @ValidQuery() query: SubgraphQuery) {
    return this.reference.subgraph(id, query.go_ids, query.depth);
  }

  @Patch('snapshots/:id/ia-url')
  @Roles('operator')
  setIaUrl(@Param('id') id: string, @ValidBody() body: SetIaUrlRequest) {
    return this.reference.setIaUrl(id, body.ia_url);
  }

  @Get('sets')
  @Roles('guest')
  sets(@ValidQuery() query: ListAnnotationSetsQuery) {
    return this.reference.annotations.list(query.source);
  }

  @Post('sets/load-goa')
  @HttpCode(201)
  @Roles('operator')
  loadGoa(@ValidBody() body: LoadGoaAnnotationsPayload, @CurrentPrincipal() who: Principal) {
    return this.jobs.dispatch(LOAD_GOA_ANNOTATIONS, body, who);
  }

  @Post('sets/load-quickgo')
  @HttpCode(201)
  @Roles('operator')
  loadQuickGo(@ValidBody() body: LoadQuickGoAnnotationsPayload, @CurrentPrincipal() who: Principal) {
    return this.jobs.dispatch(LOAD_QUICKGO_ANNOTATIONS, body, who);
  }

  @Get('sets/:id')
  @Roles('guest')
  set(@Param('id') id: string) {
    return this.reference.annotationSet(id);
  }

  @Delete('sets/:id')
  @Roles('operator')
  deleteSet(@Param('id') id: string) {
    return this.reference.deleteAnnotationSet(id);
  }

  @Post('sets/:id/cooccurrence')
  @HttpCode(201)
  @Roles('operator')
  async cooccurrence(@Param('id') id: string, @CurrentPrincipal() who: Principal, @Body() _body: unknown) {
    const set = await this.reference.annotationSet(id);
    return this.jobs.dispatch(BUILD_GO_COOCCURRENCE, { annotation_set_id: set.id }, who);
  }
}

@ApiTags('query-sets')
@Controller('query-sets')
export class QuerySetsController {
  constructor(private readonly reference: ReferenceService) {}

  /** multipart/form-data: `file` (FASTA, up to SVC_FASTA_UPLOAD_LIMIT_BYTES), `name`, `description`. The set joins the caller's history. */
  @Post()
  @HttpCode(201)
  @Roles('researcher')
  @MultipartBody({
    files: { file: 'FASTA file (up to SVC_FASTA_UPLOAD_LIMIT_BYTES)' },
    fields: { name: 'Query set name (default: the file name)', description: 'Free text' },
    required: ['file'],
  })
  async upload(@Req() request: FastifyRequest, @CurrentPrincipal() who: Principal) {
    const form = await readMultipart(request, ['file']);
    const name = form.fields['name']?.trim() || form.files['file']!.filename || 'query set';
    return this.reference.uploadQuerySet({
      name: name.slice(0, 200),
      description: form.fields['description']?.trim() || null,
      fasta: form.files['file']!.content.toString('utf8'),
      ownership: this.reference.ownershipFor(who),
    });
  }

  @Get()
  @Roles('guest')
  list(@ValidQuery() query: MineQuery, @CurrentPrincipal() who: Principal) {
    return this.reference.listQuerySets(viewerOf(who), query.mine ?? false);
  }

  @Get(':id')
  @Roles('guest')
  detail(@Param('id') id: string, @CurrentPrincipal() who: Principal) {
    return this.reference.querySet(id, viewerOf(who));
  }

  @Delete(':id')
  @Roles('researcher')
  remove(@Param('id') id: string, @CurrentPrincipal() who: Principal) {
    return this.reference.deleteQuerySet(id, viewerOf(who));
  }
}

@ApiTags('maintenance')
@Controller('maintenance')
export class MaintenanceController {
  constructor(private readonly reference: ReferenceService) {}

  @Get('orphan-sequences')
  @Roles('operator')
  async countOrphans() {
    return { count: await this.reference.proteins.countOrphanSequences() };
  }

  @Delete('orphan-sequences')
  @Roles('operator')
  async deleteOrphans() {
    return { deleted: await this.reference.proteins.deleteOrphanSequences() };
  }
}
