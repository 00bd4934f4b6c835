import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  AnnotationSetDeletionView,
  AnnotationSetView,
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
  OntologySnapshotView,
  OrphanSequenceCountView,
  OrphanSequenceDeletionView,
  ProteinAnnotationsQuery,
  ProteinAnnotationView,
  ProteinDetailView,
  ProteinPageView,
  ProteinStatsView,
  QuerySetCreatedView,
  QuerySetDeletionView,
  QuerySetDetailView,
  QuerySetView,
  QueuedJobView,
  SetIaUrlRequest,
  SubgraphQuery,
  SubgraphView,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { ApiDoc } from '../http/api-doc';
import { JobsService } from '../jobs/jobs.service';
import { MultipartBody } from '../http/multipart-body';
import { readMultipart } from './multipart';
import { ReferenceService } from './reference.service';

/** What a queued job answers (QueuedJobView's fields carry no example of their own). */
const QUEUED_EXAMPLE = { id: '7d0c3bb8-8f0a-4b4e-9d55-2b1f0c1f9b6e', status: 'queued' };
/** Problems of every route that queues a job: a payload naming an unknown row, an identical active job, no broker. */
const QUEUE_PROBLEMS = [404, 409, 503] as const;

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

  @ApiDoc({
    summary: 'Queue insert_proteins (a UniProt search or a source file)',
    ok: QueuedJobView,
    example: QUEUED_EXAMPLE,
    problems: QUEUE_PROBLEMS,
  })
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

  @ApiDoc({
    summary: 'Queue fetch_uniprot_metadata for stored proteins',
    ok: QueuedJobView,
    example: QUEUED_EXAMPLE,
    problems: QUEUE_PROBLEMS,
  })
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

@ApiTags('annotations')
@Controller('annotations')
export class AnnotationsController {
  constructor(
    private readonly reference: ReferenceService,
    private readonly jobs: JobsService,
  ) {}

  @ApiDoc({ summary: 'List ontology snapshots, newest first', ok: [OntologySnapshotView] })
  @Get('snapshots')
  @Roles('guest')
  snapshots(): Promise<OntologySnapshotView[]> {
    return this.reference.ontology.list();
  }

  @ApiDoc({
    summary: 'Queue load_ontology_snapshot (a GO OBO release)',
    ok: QueuedJobView,
    example: QUEUED_EXAMPLE,
    problems: QUEUE_PROBLEMS,
  })
  @Post('snapshots/load')
  @HttpCode(201)
  @Roles('operator')
  loadSnapshot(
    @ValidBody() body: LoadOntologySnapshotPayload,
    @CurrentPrincipal() who: Principal,
  ): Promise<QueuedJobView> {
    return this.jobs.dispatch(LOAD_ONTOLOGY_SNAPSHOT, body, who);
  }

  @ApiDoc({ summary: 'One ontology snapshot', ok: OntologySnapshotView })
  @Get('snapshots/:id')
  @Roles('guest')
  snapshot(@Param('id') id: string): Promise<OntologySnapshotView> {
    return this.reference.snapshot(id);
  }

  @ApiDoc({
    summary: 'The ancestors of GO terms in a snapshot, as nodes and edges',
    ok: SubgraphView,
    example: {
      nodes: [
        { id: 311, go_id: 'GO:0005488', name: 'binding', aspect: 'F', is_query: false },
        { id: 1207, go_id: 'GO:0005515', name: 'protein binding', aspect: 'F', is_query: true },
      ],
      edges: [{ source: 1207, target: 311, relation_type: 'is_a' }],
    },
  })
  @Get('snapshots/:id/subgraph')
  @Roles('guest')
  subgraph(@Param('id') id: string, @ValidQuery() query: SubgraphQuery): Promise<SubgraphView> {
    return this.reference.subgraph(id, query.go_ids, query.depth);
  }

  @ApiDoc({ summary: "Set or clear a snapshot's information accretion file", ok: OntologySnapshotView })
  @Patch('snapshots/:id/ia-url')
  @Roles('operator')
  setIaUrl(@Param('id') id: string, @ValidBody() body: SetIaUrlRequest): Promise<OntologySnapshotView> {
    return this.reference.setIaUrl(id, body.ia_url);
  }

  @ApiDoc({ summary: 'List annotation sets, newest first', ok: [AnnotationSetView] })
  @Get('sets')
  @Roles('guest')
  sets(@ValidQuery() query: ListAnnotationSetsQuery): Promise<AnnotationSetView[]> {
    return this.reference.annotations.list(query.source);
  }

  @ApiDoc({
    summary: 'Queue load_goa_annotations (a GOA GAF file)',
    ok: QueuedJobView,
    example: QUEUED_EXAMPLE,
    problems: QUEUE_PROBLEMS,
  })
  @Post('sets/load-goa')
  @HttpCode(201)
  @Roles('operator')
  loadGoa(
    @ValidBody() body: LoadGoaAnnotationsPayload,
    @CurrentPrincipal() who: Principal,
  ): Promise<QueuedJobView> {
    return this.jobs.dispatch(LOAD_GOA_ANNOTATIONS, body, who);
  }

  @ApiDoc({
    summary: 'Queue load_quickgo_annotations (a QuickGO download)',
    ok: QueuedJobView,
    example: QUEUED_EXAMPLE,
    problems: QUEUE_PROBLEMS,
  })
  @Post('sets/load-quickgo')
  @HttpCode(201)
  @Roles('operator')
  loadQuickGo(
    @ValidBody() body: LoadQuickGoAnnotationsPayload,
    @CurrentPrincipal() who: Principal,
  ): Promise<QueuedJobView> {
    return this.jobs.dispatch(LOAD_QUICKGO_ANNOTATIONS, body, who);
  }

  @ApiDoc({ summary: 'One annotation set', ok: AnnotationSetView })
  @Get('sets/:id')
  @Roles('guest')
  set(@Param('id') id: string): Promise<AnnotationSetView> {
    return this.reference.annotationSet(id);
  }

  @ApiDoc({
    summary: 'Delete an annotation set and its annotations (refused while prediction sets use it)',
    ok: AnnotationSetDeletionView,
    problems: [409],
  })
  @Delete('sets/:id')
  @Roles('operator')
  deleteSet(@Param('id') id: string): Promise<AnnotationSetDeletionView> {
    return this.reference.deleteAnnotationSet(id);
  }

  @ApiDoc({
    summary: "Queue build_go_cooccurrence for an annotation set's term pairs",
    ok: QueuedJobView,
    example: QUEUED_EXAMPLE,
    problems: [409, 503],
  })
  @Post('sets/:id/cooccurrence')
  @HttpCode(201)
  @Roles('operator')
  async cooccurrence(
    @Param('id') id: string,
    @CurrentPrincipal() who: Principal,
    @Body() _body: unknown,
  ): Promise<QueuedJobView> {
    const set = await this.reference.annotationSet(id);
    return this.jobs.dispatch(BUILD_GO_COOCCURRENCE, { annotation_set_id: set.id }, who);
  }
}

@ApiTags('query-sets')
@Controller('query-sets')
export class QuerySetsController {
  constructor(private readonly reference: ReferenceService) {}

  /** multipart/form-data: `file` (FASTA, up to SVC_FASTA_UPLOAD_LIMIT_BYTES), `name`, `description`. The set joins the caller's history. */
  @ApiDoc({ summary: 'Upload a FASTA file as a query set', ok: QuerySetCreatedView })
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

  @ApiDoc({ summary: "List public query sets and the caller's own, newest first", ok: [QuerySetView] })
  @Get()
  @Roles('guest')
  list(@ValidQuery() query: MineQuery, @CurrentPrincipal() who: Principal) {
    return this.reference.listQuerySets(viewerOf(who), query.mine ?? false);
  }

  @ApiDoc({ summary: 'One query set with its entries', ok: QuerySetDetailView })
  @Get(':id')
  @Roles('guest')
  detail(@Param('id') id: string, @CurrentPrincipal() who: Principal) {
    return this.reference.querySet(id, viewerOf(who));
  }

  @ApiDoc({ summary: 'Delete a query set and its entries', ok: QuerySetDeletionView })
  @Delete(':id')
  @Roles('researcher')
  remove(@Param('id') id: string, @CurrentPrincipal() who: Principal): Promise<QuerySetDeletionView> {
    return this.reference.deleteQuerySet(id, viewerOf(who));
  }
}

@ApiTags('maintenance')
@Controller('maintenance')
export class MaintenanceController {
  constructor(private readonly reference: ReferenceService) {}

  @ApiDoc({ summary: 'Count sequences no protein or query-set entry uses', ok: OrphanSequenceCountView })
  @Get('orphan-sequences')
  @Roles('operator')
  async countOrphans(): Promise<OrphanSequenceCountView> {
    return { count: await this.reference.proteins.countOrphanSequences() };
  }

  @ApiDoc({ summary: 'Delete sequences no protein or query-set entry uses', ok: OrphanSequenceDeletionView })
  @Delete('orphan-sequences')
  @Roles('operator')
  async deleteOrphans(): Promise<OrphanSequenceDeletionView> {
    return { deleted: await this.reference.proteins.deleteOrphanSequences() };
  }
}
