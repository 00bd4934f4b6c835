import { Controller, Delete, Get, HttpCode, Param, Post, Req, StreamableFile } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiTags } from '@nestjs/swagger';
import {
  AnnotateQuery,
  ImportRerankerByReferenceRequest,
  CafaExportQuery,
  StandardExportQuery,
  GoTermDistributionQuery,
  MineQuery,
  PredictGoTermsPayload,
  PredictionExportQuery,
  PredictionProteinsQuery,
  ResolvePredictionQuery,
  ScoreTsvQuery,
  ScoringConfigCreate,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { MultipartBody } from '../http/multipart-body';
import { readMultipart } from '../reference/multipart';
import { AnnotateResponse, AnnotateService } from './annotate.service';
import { PredictionsService } from './predictions.service';
import { RerankersService } from './rerankers.service';
import { ScoringService } from './scoring.service';

@ApiTags('predictions')
@Controller('embeddings')
export class PredictionsController {
  constructor(private readonly predictions: PredictionsService) {}

  /** Guests may predict under the daily sequence quota of their address. */
  @Post('predict')
  @HttpCode(201)
  @Roles('guest')
  predict(@ValidBody() body: PredictGoTermsPayload, @CurrentPrincipal() who: Principal) {
    return this.predictions.predict(body, who);
  }

  @Get('resolve')
  @Roles('guest')
  resolve(@ValidQuery() query: ResolvePredictionQuery, @CurrentPrincipal() who: Principal) {
    return this.predictions.resolve(query.query_set_id, query.embedding_config_id, viewerOf(who));
  }

  @Get('prediction-sets')
  @Roles('guest')
  list(@ValidQuery() query: MineQuery, @CurrentPrincipal() who: Principal) {
    return this.predictions.list(viewerOf(who), query.mine ?? false);
  }

  @Get('prediction-sets/:id')
  @Roles('guest')
  detail(@Param('id') id: string, @CurrentPrincipal() who: Principal) {
    return this.predictions.detail(id, viewerOf(who));
  }

  /** Researchers delete their own sets; operators any. */
  @Delete('prediction-sets/:id')
  @Roles('researcher')
  remove(@Param('id') id: string, @CurrentPrincipal() who: Principal) {
    return this.predictions.delete(id, viewerOf(who));
  }

  @Get('prediction-sets/:id/proteins')
  @Roles('guest')
  proteins(
    @Param('id') id: string,
    @ValidQuery() query: PredictionProteinsQuery,
    @CurrentPrincipal() who: Principal,
  ) {
    return this.predictions.proteins(id, query, viewerOf(who));
  }

  @Get('prediction-sets/:id/proteins/:accession')
  @Roles('guest')
  protein(
    @Param('id') id: string,
    @Param('accession') accession: string,
    @CurrentPrincipal() who: Principal,
  ) {
    return this.predictions.protein(id, accession, viewerOf(who));
  }

  @Get('prediction-sets/:id/go-terms')
  @Roles('guest')
  goTerms(
    @Param('id') id: string,
    @ValidQuery() query: GoTermDistributionQuery,
    @CurrentPrincipal() who: Principal,
  ) {
    return this.predictions.goTerms(id, query.limit, viewerOf(who));
  }

  @Get('prediction-sets/:id/predictions.tsv')
  @Roles('guest')
  predictionsTsv(
    @Param('id') id: string,
    @ValidQuery() query: PredictionExportQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.predictions.predictionsTsv(id, query, viewerOf(who));
  }

  @Get('prediction-sets/:id/predictions.gaf')
  @Roles('guest')
  gaf(
    @Param('id') id: string,
    @ValidQuery() query: StandardExportQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.predictions.gaf(id, query, viewerOf(who));
  }

  @Get('prediction-sets/:id/predictions.json')
  @Roles('guest')
  json(
    @Param('id') id: string,
    @ValidQuery() query: StandardExportQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.predictions.json(id, query, viewerOf(who));
  }

  @Get('prediction-sets/:id/predictions.zip')
  @Roles('guest')
  zip(
    @Param('id') id: string,
    @ValidQuery() query: StandardExportQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.predictions.zip(id, query, viewerOf(who));
  }

  @Get('prediction-sets/:id/predictions-cafa.tsv')
  @Roles('guest')
  cafaTsv(
    @Param('id') id: string,
    @ValidQuery() query: CafaExportQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.predictions.cafaTsv(id, query, viewerOf(who));
  }
}

@ApiTags('scoring')
@Controller('scoring')
export class ScoringController {
  constructor(private readonly scoring: ScoringService) {}

  @Get('configs')
  @Roles('guest')
  list() {
    return this.scoring.list();
  }

  @Post('configs')
  @HttpCode(201)
  @Roles('operator')
  create(@ValidBody() body: ScoringConfigCreate) {
    return this.scoring.create(body);
  }

  @Post('configs/presets')
  @HttpCode(201)
  @Roles('operator')
  presets() {
    return this.scoring.createPresets();
  }

  @Get('configs/:id')
  @Roles('guest')
  get(@Param('id') id: string) {
    return this.scoring.get(id);
  }

  @Delete('configs/:id')
  @Roles('operator')
  remove(@Param('id') id: string) {
    return this.scoring.delete(id);
  }

  @Get('prediction-sets/:id/score.tsv')
  @Roles('guest')
  scoreTsv(
    @Param('id') id: string,
    @ValidQuery() query: ScoreTsvQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.scoring.scoreTsv(id, query.scoring_config_id, viewerOf(who));
  }
}

@ApiTags('annotate')
@Controller('annotate')
export class AnnotateController {
  constructor(private readonly annotate: AnnotateService) {}

  /**
   * multipart/form-data: `file` (FASTA), `name`. Guests may annotate with save_history=false under the
   * daily sequence quota of their address; save_history=true needs a researcher account.
   */
  @Post()
  @HttpCode(201)
  @Roles('guest')
  @MultipartBody({
    files: { file: 'FASTA file of the proteins to annotate (up to SVC_FASTA_UPLOAD_LIMIT_BYTES)' },
    fields: { name: 'A name for the query set (default: the file name)' },
    required: ['file'],
  })
  async create(
    @Req() request: FastifyRequest,
    @ValidQuery() query: AnnotateQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<AnnotateResponse> {
    const form = await readMultipart(request, ['file']);
    const name = form.fields['name']?.trim() || form.files['file']!.filename || 'annotation';
    return this.annotate.annotate({
      name: name.slice(0, 200),
      fasta: form.files['file']!.content.toString('utf8'),
      saveHistory: query.save_history ?? false,
      principal: who,
    });
  }
}

/** Reranker files may be up to 100 MB (DESIGN.md §3). */
const RERANKER_UPLOAD_LIMIT_BYTES = 100 * 1024 * 1024;

@ApiTags('rerankers')
@Controller('reranker-models')
export class RerankerModelsController {
  constructor(private readonly rerankers: RerankersService) {}

  /** multipart/form-data: files `model.txt`, `spec.yaml`, `run.json`; fields name, dataset_id, external_source, prediction_set_id, evaluation_set_id, force. */
  @Post('import')
  @HttpCode(201)
  @Roles('operator')
  @MultipartBody({
    files: {
      'model.txt': 'LightGBM text model',
      'spec.yaml': 'feature spec (features: distance-first, or the feature list)',
      'run.json': 'training run record (metrics, feature schema)',
    },
    fields: {
      name: 'Model name',
      dataset_id: 'Dataset the model was trained on',
      external_source: 'Where the model comes from',
      prediction_set_id: 'Prediction set it was checked on',
      evaluation_set_id: 'Evaluation set it was checked on',
      force: 'true to import despite a feature schema mismatch',
    },
    required: ['model.txt', 'spec.yaml', 'run.json'],
  })
  async importUpload(@Req() request: FastifyRequest) {
    const form = await readMultipart(request, ['model.txt', 'spec.yaml', 'run.json'], {
      maxFileBytes: RERANKER_UPLOAD_LIMIT_BYTES,
    });
    return this.rerankers.importUpload({
      modelText: form.files['model.txt']!.content.toString('utf8'),
      specYaml: form.files['spec.yaml']!.content.toString('utf8'),
      runJson: form.files['run.json']!.content.toString('utf8'),
      fields: form.fields,
    });
  }

  @Post('import-by-reference')
  @HttpCode(201)
  @Roles('operator')
  importByReference(@ValidBody() body: ImportRerankerByReferenceRequest) {
    return this.rerankers.importByReference(body);
  }
}

/** Registered re-rankers, readable under both the scoring and the reranker-models paths. */
@ApiTags('rerankers')
@Controller()
export class ScoringRerankersController {
  constructor(private readonly rerankers: RerankersService) {}

  @Get(['scoring/rerankers', 'reranker-models'])
  @Roles('guest')
  list() {
    return this.rerankers.list();
  }

  @Get(['scoring/rerankers/:id', 'reranker-models/:id'])
  @Roles('guest')
  get(@Param('id') id: string) {
    return this.rerankers.get(id);
  }

  @Delete('scoring/rerankers/:id')
  @Roles('operator')
  remove(@Param('id') id: string) {
    return this.rerankers.delete(id);
  }
}
