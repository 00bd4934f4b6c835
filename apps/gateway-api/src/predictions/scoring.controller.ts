import { Controller, Delete, Get, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ScoreTsvQuery,
  ScoringConfigCreate,
  ScoringConfigDeletionView,
  ScoringConfigView,
  ScoringPresetsView,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { ApiDoc } from '../http/api-doc';
import { ScoringService } from './scoring.service';

const SCORE_TSV_EXAMPLE =
  'protein_accession\tgo_id\tgo_aspect\tscore\tembedding_similarity\tidentity_nw\tidentity_sw\tevidence_weight\ttaxonomic_proximity\tneighbor_vote_fraction\tprediction_score\tdistance\tref_protein_accession\n' +
  'P69905\tGO:0005344\tF\t0.812000\t0.91\t0.437\t0.451\t1\t1\t0.6\t0.91\t0.18\tP68871\n';
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
