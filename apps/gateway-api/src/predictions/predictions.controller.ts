import { Controller, Delete, Get, HttpCode, Param, Post, Req, StreamableFile } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiTags } from '@nestjs/swagger';
import {
  AnnotateQuery,
  AnnotateView,
  ImportRerankerByReferenceRequest,
  CafaExportQuery,
  StandardExportQuery,
  GoTermDistributionQuery,
  GoTermDistributionView,
  MineQuery,
  PredictGoTermsPayload,
  PredictionExportProteinView,
  PredictionExportQuery,
  PredictionProteinsQuery,
  PredictionRowView,
  PredictionSetDeletionView,
  PredictionSetDetailView,
  PredictionSetProteinsPageView,
  PredictionSetSummaryView,
  PredictionSetView,
  QueuedJobView,
  RerankerDeletionView,
  RerankerView,
  ResolvePredictionQuery,
  ScoreTsvQuery,
  ScoringConfigCreate,
  ScoringConfigDeletionView,
  ScoringConfigView,
  ScoringPresetsView,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { ApiDoc } from '../http/api-doc';
import { MultipartBody } from '../http/multipart-body';
import { readMultipart } from '../reference/multipart';
import { AnnotateService } from './annotate.service';
import { PredictionsService } from './predictions.service';
import { RerankersService } from './rerankers.service';
import { ScoringService } from './scoring.service';

const PREDICTIONS_TSV_EXAMPLE =
  'protein_accession\tgo_id\tgo_name\tgo_aspect\tdistance\tref_protein_accession\tqualifier\tevidence_code\tidentity_nw\tsimilarity_nw\talignment_score_nw\tgaps_pct_nw\talignment_length_nw\tidentity_sw\tsimilarity_sw\talignment_score_sw\tgaps_pct_sw\talignment_length_sw\tlength_query\tlength_ref\tquery_taxonomy_id\tref_taxonomy_id\ttaxonomic_lca\ttaxonomic_distance\ttaxonomic_common_ancestors\ttaxonomic_relation\tvote_count\tk_position\tgo_term_frequency\tref_annotation_density\tneighbor_distance_std\tneighbor_vote_fraction\tscore\n' +
  'P69905\tGO:0005344\toxygen carrier activity\tF\t0.18\tP68871\tenables\tIDA\t43.7\t61.2\t310\t2.1\t142\t45.1\t63.4\t318\t1.4\t140\t142\t147\t9606\t9606\t9606\t0\t32\tsame\t3\t1\t57\t12\t0.04\t0.6\t0.91\n' +
  'P69905\tGO:0005833\themoglobin complex\tC\t0.18\tP68871\tpart_of\tIDA\t43.7\t61.2\t310\t2.1\t142\t45.1\t63.4\t318\t1.4\t140\t142\t147\t9606\t9606\t9606\t0\t32\tsame\t3\t1\t44\t12\t0.04\t0.6\t0.89\n';

const CAFA_TSV_EXAMPLE =
  'P69905\tGO:0005344\t0.910000\nP69905\tGO:0005833\t0.890000\nP68871\tGO:0019825\t0.874000\n';

const PREDICTIONS_GAF_EXAMPLE =
  '!gaf-version: 2.2\n!generated-by: SVC protein function service\n!date-generated: 2025-01-15\n' +
  'UniProtKB\tP69905\tP69905\tenables\tGO:0005344\tSVC:3f0b8c52-6f7e-4d0a-9a51-1c2d3e4f5a6b\tIEA\tUniProtKB:P68871\tF\t\t\tprotein\ttaxon:9606\t20250115\tSVC\t\t\n';

const PREDICTIONS_ZIP_EXAMPLE =
  'PK\u0003\u0004... (ZIP entries: predictions.tsv, predictions-cafa.tsv, predictions.gaf, predictions.json)';

const SCORE_TSV_EXAMPLE =
  'protein_accession\tgo_id\tgo_aspect\tscore\tembedding_similarity\tidentity_nw\tidentity_sw\tevidence_weight\ttaxonomic_proximity\tneighbor_vote_fraction\tprediction_score\tdistance\tref_protein_accession\n' +
  'P69905\tGO:0005344\tF\t0.812000\t0.91\t0.437\t0.451\t1\t1\t0.6\t0.91\t0.18\tP68871\n';

@ApiTags('predictions')
@Controller('embeddings')
export class PredictionsController {
  constructor(private readonly predictions: PredictionsService) {}

  /** Guests may predict under the daily sequence quota of their address. */
  @ApiDoc({
    summary: 'Queue a GO-term prediction (predict_go_terms) over a query set or an embedding config',
    ok: QueuedJobView,
    example: { id: '7d0c3bb8-8f0a-4b4e-9d55-2b1f0c1f9b6e', status: 'queued' },
    problems: [404, 409, 503],
  })
  @Post('predict')
  @HttpCode(201)
  @Roles('guest')
  predict(
    @ValidBody() body: PredictGoTermsPayload,
    @CurrentPrincipal() who: Principal,
  ): Promise<QueuedJobView> {
    return this.predictions.predict(body, who);
  }

  @ApiDoc({
    summary: 'The newest prediction set of a query set and an embedding config',
    ok: PredictionSetView,
    problems: [404],
  })
  @Get('resolve')
  @Roles('guest')
  resolve(@ValidQuery() query: ResolvePredictionQuery, @CurrentPrincipal() who: Principal) {
    return this.predictions.resolve(query.query_set_id, query.embedding_config_id, viewerOf(who));
  }

  @ApiDoc({ summary: 'The newest 100 prediction sets the caller may see', ok: [PredictionSetSummaryView] })
  @Get('prediction-sets')
  @Roles('guest')
  list(@ValidQuery() query: MineQuery, @CurrentPrincipal() who: Principal) {
    return this.predictions.list(viewerOf(who), query.mine ?? false);
  }

  @ApiDoc({ summary: 'One prediction set with its per-protein counts', ok: PredictionSetDetailView })
  @Get('prediction-sets/:id')
  @Roles('guest')
  detail(@Param('id') id: string, @CurrentPrincipal() who: Principal) {
    return this.predictions.detail(id, viewerOf(who));
  }

  /** Researchers delete their own sets; operators any. */
  @ApiDoc({ summary: 'Delete a prediction set with its predictions', ok: PredictionSetDeletionView })
  @Delete('prediction-sets/:id')
  @Roles('researcher')
  remove(@Param('id') id: string, @CurrentPrincipal() who: Principal): Promise<PredictionSetDeletionView> {
    return this.predictions.delete(id, viewerOf(who));
  }

  @ApiDoc({
    summary: "A page of a prediction set's proteins with their counts, by accession",
    ok: PredictionSetProteinsPageView,
  })
  @Get('prediction-sets/:id/proteins')
  @Roles('guest')
  proteins(
    @Param('id') id: string,
    @ValidQuery() query: PredictionProteinsQuery,
    @CurrentPrincipal() who: Principal,
  ) {
    return this.predictions.proteins(id, query, viewerOf(who));
  }

  @ApiDoc({
    summary: "One protein's predicted terms in a set, best score first",
    ok: [PredictionRowView],
  })
  @Get('prediction-sets/:id/proteins/:accession')
  @Roles('guest')
  protein(
    @Param('id') id: string,
    @Param('accession') accession: string,
    @CurrentPrincipal() who: Principal,
  ) {
    return this.predictions.protein(id, accession, viewerOf(who));
  }

  @ApiDoc({
    summary: 'The most predicted GO terms of a set per aspect, with per-aspect totals',
    ok: GoTermDistributionView,
    example: {
      terms: {
        F: [
          {
            aspect: 'F',
            go_id: 'GO:0005344',
            go_name: 'oxygen carrier activity',
            prediction_count: 12,
            protein_count: 9,
          },
        ],
        P: [
          {
            aspect: 'P',
            go_id: 'GO:0015671',
            go_name: 'oxygen transport',
            prediction_count: 10,
            protein_count: 8,
          },
        ],
        C: [],
      },
      totals: {
        F: { aspect: 'F', predictions: 180, terms: 64, proteins: 11 },
        P: { aspect: 'P', predictions: 150, terms: 71, proteins: 10 },
      },
    },
  })
  @Get('prediction-sets/:id/go-terms')
  @Roles('guest')
  goTerms(
    @Param('id') id: string,
    @ValidQuery() query: GoTermDistributionQuery,
    @CurrentPrincipal() who: Principal,
  ) {
    return this.predictions.goTerms(id, query.limit, viewerOf(who));
  }

  @ApiDoc({
    summary: 'Download the prediction rows as TSV (32 columns and the score)',
    ok: { file: 'text/tab-separated-values', example: PREDICTIONS_TSV_EXAMPLE },
  })
  @Get('prediction-sets/:id/predictions.tsv')
  @Roles('guest')
  predictionsTsv(
    @Param('id') id: string,
    @ValidQuery() query: PredictionExportQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.predictions.predictionsTsv(id, query, viewerOf(who));
  }

  @ApiDoc({
    summary: 'Download the predicted terms as GAF 2.2, best first per protein',
    ok: { file: 'text/plain', example: PREDICTIONS_GAF_EXAMPLE },
  })
  @Get('prediction-sets/:id/predictions.gaf')
  @Roles('guest')
  gaf(
    @Param('id') id: string,
    @ValidQuery() query: StandardExportQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.predictions.gaf(id, query, viewerOf(who));
  }

  @ApiDoc({
    summary: 'Download the predicted terms per protein as JSON, best first',
    description:
      'Streamed as an attachment (`predictions-<id>.json`): one entry per protein with terms scoring at least `min_score`.',
    ok: [PredictionExportProteinView],
  })
  @Get('prediction-sets/:id/predictions.json')
  @Roles('guest')
  json(
    @Param('id') id: string,
    @ValidQuery() query: StandardExportQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.predictions.json(id, query, viewerOf(who));
  }

  @ApiDoc({
    summary: 'Download every format of a prediction set in one ZIP',
    description:
      'Entries: predictions.tsv, predictions-cafa.tsv, predictions.gaf and predictions.json (the last two cut at `min_score`).',
    ok: { file: 'application/zip', example: PREDICTIONS_ZIP_EXAMPLE },
  })
  @Get('prediction-sets/:id/predictions.zip')
  @Roles('guest')
  zip(
    @Param('id') id: string,
    @ValidQuery() query: StandardExportQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.predictions.zip(id, query, viewerOf(who));
  }

  @ApiDoc({
    summary: 'Download the CAFA prediction file (protein, GO id, best score)',
    ok: { file: 'text/tab-separated-values', example: CAFA_TSV_EXAMPLE },
  })
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

  @ApiDoc({ summary: 'List scoring configs, newest first', ok: [ScoringConfigView] })
  @Get('configs')
  @Roles('guest')
  list(): Promise<ScoringConfigView[]> {
    return this.scoring.list();
  }

  @ApiDoc({ summary: 'Create a scoring config (named weights)', ok: ScoringConfigView, problems: [409] })
  @Post('configs')
  @HttpCode(201)
  @Roles('operator')
  create(@ValidBody() body: ScoringConfigCreate): Promise<ScoringConfigView> {
    return this.scoring.create(body);
  }

  @ApiDoc({ summary: 'Register the missing scoring presets; returns every preset', ok: ScoringPresetsView })
  @Post('configs/presets')
  @HttpCode(201)
  @Roles('operator')
  presets(): Promise<ScoringPresetsView> {
    return this.scoring.createPresets();
  }

  @ApiDoc({ summary: 'One scoring config', ok: ScoringConfigView })
  @Get('configs/:id')
  @Roles('guest')
  get(@Param('id') id: string): Promise<ScoringConfigView> {
    return this.scoring.get(id);
  }

  @ApiDoc({ summary: 'Delete a scoring config', ok: ScoringConfigDeletionView })
  @Delete('configs/:id')
  @Roles('operator')
  remove(@Param('id') id: string): Promise<ScoringConfigDeletionView> {
    return this.scoring.delete(id);
  }

  @ApiDoc({
    summary: "Download a prediction set's rows with their signals, scored by a scoring config",
    ok: { file: 'text/tab-separated-values', example: SCORE_TSV_EXAMPLE },
  })
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
  @ApiDoc({
    summary: 'One-click annotation: upload a FASTA, embed it and queue its GO-term prediction',
    ok: AnnotateView,
    problems: [403, 409, 503],
  })
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
  ): Promise<AnnotateView> {
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
  @ApiDoc({ summary: 'Import a LightGBM re-ranker from uploaded files', ok: RerankerView, problems: [409] })
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
  async importUpload(@Req() request: FastifyRequest): Promise<RerankerView> {
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

  @ApiDoc({
    summary: 'Register a LightGBM re-ranker stored elsewhere (by URI)',
    ok: RerankerView,
    problems: [409],
  })
  @Post('import-by-reference')
  @HttpCode(201)
  @Roles('operator')
  importByReference(@ValidBody() body: ImportRerankerByReferenceRequest): Promise<RerankerView> {
    return this.rerankers.importByReference(body);
  }
}

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
