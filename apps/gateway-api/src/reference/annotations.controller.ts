import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  AnnotationSetDeletionView,
  AnnotationSetView,
  BUILD_GO_COOCCURRENCE,
  ListAnnotationSetsQuery,
  LOAD_GOA_ANNOTATIONS,
  LOAD_ONTOLOGY_SNAPSHOT,
  LOAD_QUICKGO_ANNOTATIONS,
  LoadGoaAnnotationsPayload,
  LoadOntologySnapshotPayload,
  LoadQuickGoAnnotationsPayload,
  OntologySnapshotView,
  QueuedJobView,
  SetIaUrlRequest,
  SubgraphQuery,
  SubgraphView,
} from '@svc/contracts';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { CurrentPrincipal, Principal, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { ApiDoc, QueueDoc } from '../http/api-doc';
import { JobsService } from '../jobs/jobs.service';
import { showSources, showSourcesOfEach } from '../sources/public-sources';
import { ReferenceService } from './reference.service';

/** The stored sources of snapshots and annotation sets: URIs for staff, file names for others. */
const SNAPSHOT_SOURCES = ['obo_url', 'ia_url'] as const;
const SET_SOURCES = ['source_url'] as const;

@ApiTags('annotations')
@Controller('annotations')
export class AnnotationsController {
  constructor(
    private readonly reference: ReferenceService,
    private readonly jobs: JobsService,
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
  ) {}

  @ApiDoc({ summary: 'List ontology snapshots, newest first', ok: [OntologySnapshotView] })
  @Get('snapshots')
  @Roles('guest')
  async snapshots(@CurrentPrincipal() who: Principal): Promise<OntologySnapshotView[]> {
    const rows = await this.reference.ontology.list();
    return showSourcesOfEach(rows, SNAPSHOT_SOURCES, viewerOf(who), this.infra.config);
  }

  @QueueDoc('Queue load_ontology_snapshot (a GO OBO release)')
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
  async snapshot(@Param('id') id: string, @CurrentPrincipal() who: Principal): Promise<OntologySnapshotView> {
    return showSources(await this.reference.snapshot(id), SNAPSHOT_SOURCES, viewerOf(who), this.infra.config);
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
  async sets(
    @ValidQuery() query: ListAnnotationSetsQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<AnnotationSetView[]> {
    const rows = await this.reference.annotations.list(query.source);
    return showSourcesOfEach(rows, SET_SOURCES, viewerOf(who), this.infra.config);
  }

  @QueueDoc('Queue load_goa_annotations (a GOA GAF file)')
  @Post('sets/load-goa')
  @HttpCode(201)
  @Roles('operator')
  loadGoa(
    @ValidBody() body: LoadGoaAnnotationsPayload,
    @CurrentPrincipal() who: Principal,
  ): Promise<QueuedJobView> {
    return this.jobs.dispatch(LOAD_GOA_ANNOTATIONS, body, who);
  }

  @QueueDoc('Queue load_quickgo_annotations (a QuickGO download)')
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
  async set(@Param('id') id: string, @CurrentPrincipal() who: Principal): Promise<AnnotationSetView> {
    return showSources(await this.reference.annotationSet(id), SET_SOURCES, viewerOf(who), this.infra.config);
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

  @QueueDoc("Queue build_go_cooccurrence for an annotation set's term pairs")
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
