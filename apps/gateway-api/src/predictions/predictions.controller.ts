import { Controller, Delete, Get, HttpCode, Param, Patch, Post, StreamableFile } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  EXAMPLE_IDS,
  CafaExportQuery,
  StandardExportQuery,
  GoTermDistributionQuery,
  GoTermDistributionView,
  MineQuery,
  PredictGoTermsPayload,
  PredictionExportView,
  PredictionExportQuery,
  PredictionProteinsQuery,
  PredictionRowView,
  PredictionSetDeletionView,
  PredictionSetDetailView,
  SetVisibilityRequest,
  PredictionSetProteinsPageView,
  PredictionSetSummaryView,
  PredictionSetView,
  QueuedJobView,
  ResolvePredictionQuery,
} from '@svc/contracts';
import { predictionGafHeader, predictionGafLine } from '@svc/domain';
import { CurrentPrincipal, Principal, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { ApiDoc, QueueDoc } from '../http/api-doc';
import { PredictionsService } from './predictions.service';

const PREDICTIONS_TSV_EXAMPLE =
  'protein_accession\tgo_id\tgo_name\tgo_aspect\tdistance\tref_protein_accession\tqualifier\tevidence_code\tidentity_nw\tsimilarity_nw\talignment_score_nw\tgaps_pct_nw\talignment_length_nw\tidentity_sw\tsimilarity_sw\talignment_score_sw\tgaps_pct_sw\talignment_length_sw\tlength_query\tlength_ref\tquery_taxonomy_id\tref_taxonomy_id\ttaxonomic_lca\ttaxonomic_distance\ttaxonomic_common_ancestors\ttaxonomic_relation\tvote_count\tk_position\tgo_term_frequency\tref_annotation_density\tneighbor_distance_std\tneighbor_vote_fraction\n' +
  'P69905\tGO:0005344\toxygen carrier activity\tF\t0.09\tP68871\tenables\tIDA\t43.7\t61.2\t310\t2.1\t142\t45.1\t63.4\t318\t1.4\t140\t142\t147\t9606\t9606\t9606\t0\t32\tsame\t3\t1\t57\t12\t0.04\t0.6\n' +
  'P69905\tGO:0005833\themoglobin complex\tC\t0.11\tP68871\tpart_of\tIDA\t43.7\t61.2\t310\t2.1\t142\t45.1\t63.4\t318\t1.4\t140\t142\t147\t9606\t9606\t9606\t0\t32\tsame\t3\t1\t44\t12\t0.04\t0.6\n';

const CAFA_TSV_EXAMPLE =
  'P69905\tGO:0005344\t0.910000\nP69905\tGO:0005833\t0.890000\nP68871\tGO:0019825\t0.874000\n';

const PREDICTIONS_GAF_EXAMPLE =
  predictionGafHeader({ predictionSetId: EXAMPLE_IDS.predictionSet, generated: '2025-01-15', minScore: 0.3 })
    .map((line) => `${line}\n`)
    .join('') +
  [
    { protein: 'P69905', goId: 'GO:0005344', aspect: 'F' as const, donor: 'P68871' },
    { protein: 'P69905', goId: 'GO:0005737', aspect: 'C' as const, donor: null },
  ]
    .map((t) => `${predictionGafLine({ ...t, taxonId: '9606', date: '20250115' })}\n`)
    .join('');

const PREDICTIONS_ZIP_EXAMPLE =
  'PK\u0003\u0004... (ZIP entries: predictions.tsv, predictions-cafa.tsv, predictions.gaf, predictions.json)';
@ApiTags('predictions')
@Controller('embeddings')
export class PredictionsController {
  constructor(private readonly predictions: PredictionsService) {}

  /** Guests may predict under the daily sequence quota of their address. */
  @QueueDoc('Queue a GO-term prediction (predict_go_terms) over a query set or an embedding config')
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

  /** Researchers publish their own sets (a link anyone may follow); operators any. */
  @ApiDoc({
    summary: "Publish a prediction set to anyone with the link (public), or make it its owner's again",
    ok: PredictionSetDetailView,
    problems: [403, 404],
  })
  @Patch('prediction-sets/:id/visibility')
  @Roles('researcher')
  setVisibility(
    @Param('id') id: string,
    @ValidBody() body: SetVisibilityRequest,
    @CurrentPrincipal() who: Principal,
  ) {
    return this.predictions.setVisibility(id, body.visibility, viewerOf(who));
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
    return this.predictions.goTerms(id, query, viewerOf(who));
  }

  @ApiDoc({
    summary: 'Download the prediction rows as TSV (the 32 columns; a row scores max(0, 1 - distance))',
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
      'Streamed as an attachment (`predictions-<id>.json`): the reference, coverage and warnings of the set, then one entry per protein with terms scoring at least `min_score`.',
    ok: PredictionExportView,
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
