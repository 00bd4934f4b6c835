import { Controller, Delete, Get, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  DeltaProteinsQuery,
  EvaluationResultView,
  EvaluationSetDeletionView,
  EvaluationSetSummaryView,
  GenerateEvaluationSetPayload,
  MineQuery,
  QueuedJobView,
  RunEvaluationRequest,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { ApiDoc, QueueDoc } from '../http/api-doc';
import { EvaluationsService } from './evaluations.service';

@ApiTags('evaluations')
@Controller('annotations/evaluation-sets')
export class EvaluationsController {
  constructor(private readonly evaluations: EvaluationsService) {}

  @QueueDoc('Queue the generation of an evaluation set (temporal holdout) between two annotation sets')
  @Post('generate')
  @HttpCode(201)
  @Roles('operator')
  generate(
    @ValidBody() body: GenerateEvaluationSetPayload,
    @CurrentPrincipal() who: Principal,
  ): Promise<QueuedJobView> {
    return this.evaluations.generate(body, who);
  }

  @ApiDoc({ summary: 'List evaluation sets, newest first', ok: [EvaluationSetSummaryView] })
  @Get()
  @Roles('guest')
  list(@CurrentPrincipal() who: Principal) {
    return this.evaluations.list(viewerOf(who));
  }

  @ApiDoc({
    summary: 'One evaluation set with its statistics and the names of its annotation sets and ontology',
    ok: EvaluationSetSummaryView,
  })
  @Get(':id')
  @Roles('guest')
  get(@Param('id') id: string, @CurrentPrincipal() who: Principal) {
    return this.evaluations.summary(id, viewerOf(who));
  }

  @ApiDoc({
    summary: 'Delete an evaluation set with its results and their stored artifacts',
    ok: EvaluationSetDeletionView,
  })
  @Delete(':id')
  @Roles('operator')
  remove(@Param('id') id: string): Promise<EvaluationSetDeletionView> {
    return this.evaluations.delete(id);
  }

  @ApiDoc({
    summary: 'No-knowledge (NK) ground truth: protein accession and GO id, no header',
    ok: {
      file: 'text/tab-separated-values',
      example: 'P69905\tGO:0005515\nP69905\tGO:0020037\nP68871\tGO:0005833\n',
    },
  })
  @Get(':id/ground-truth-NK.tsv')
  @Roles('guest')
  groundTruthNk(@Param('id') id: string): Promise<StreamableFile> {
    return this.evaluations.groundTruthTsv(id, 'NK');
  }

  @ApiDoc({
    summary: 'Limited-knowledge (LK) ground truth: protein accession and GO id, no header',
    ok: {
      file: 'text/tab-separated-values',
      example: 'P69905\tGO:0005515\nP69905\tGO:0020037\nP68871\tGO:0005833\n',
    },
  })
  @Get(':id/ground-truth-LK.tsv')
  @Roles('guest')
  groundTruthLk(@Param('id') id: string): Promise<StreamableFile> {
    return this.evaluations.groundTruthTsv(id, 'LK');
  }

  @ApiDoc({
    summary: 'Partial-knowledge (PK) ground truth: protein accession and GO id, no header',
    ok: {
      file: 'text/tab-separated-values',
      example: 'P69905\tGO:0005515\nP69905\tGO:0020037\nP68871\tGO:0005833\n',
    },
  })
  @Get(':id/ground-truth-PK.tsv')
  @Roles('guest')
  groundTruthPk(@Param('id') id: string): Promise<StreamableFile> {
    return this.evaluations.groundTruthTsv(id, 'PK');
  }

  @ApiDoc({
    summary: 'Known (t0) terms of the partial-knowledge proteins: protein accession and GO id, no header',
    ok: { file: 'text/tab-separated-values', example: 'P69905\tGO:0005344\nP69905\tGO:0019825\n' },
  })
  @Get(':id/known-terms.tsv')
  @Roles('guest')
  knownTerms(@Param('id') id: string): Promise<StreamableFile> {
    return this.evaluations.groundTruthTsv(id, 'KNOWN');
  }

  @ApiDoc({
    summary: "Sequences of the set's delta proteins, of one category or all",
    ok: {
      file: 'text/x-fasta',
      example:
        '>P69905 HBA_HUMAN OS=Homo sapiens OX=9606 (NK)\n' +
        'MVLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHFDLSHGSAQVKGHG\n' +
        'KKVADALTNAVAHVDDMPNALSALSDLHAHKLRVDPVNFKLLSHCLLVTLAAHLPAEFTP\n',
    },
  })
  @Get(':id/delta-proteins.fasta')
  @Roles('guest')
  deltaProteins(@Param('id') id: string, @ValidQuery() query: DeltaProteinsQuery): Promise<StreamableFile> {
    return this.evaluations.deltaFasta(id, query.category);
  }

  @QueueDoc('Queue a CAFA evaluation of a prediction set on this evaluation set')
  @Post(':id/run')
  @HttpCode(201)
  @Roles('operator')
  run(
    @Param('id') id: string,
    @ValidBody() body: RunEvaluationRequest,
    @CurrentPrincipal() who: Principal,
  ): Promise<QueuedJobView> {
    return this.evaluations.run(id, body, who);
  }

  @ApiDoc({
    summary: "The set's evaluation results the caller may see, newest first",
    ok: [EvaluationResultView],
  })
  @Get(':id/results')
  @Roles('guest')
  results(@Param('id') id: string, @ValidQuery() query: MineQuery, @CurrentPrincipal() who: Principal) {
    return this.evaluations.results(id, viewerOf(who), query.mine ?? false);
  }

  @ApiDoc({
    summary: "A result's metrics, one row per (category, aspect)",
    ok: {
      file: 'text/tab-separated-values',
      example:
        'setting\tnamespace\tf_micro_w\tfmax_w\tf_micro\tprecision_w\trecall_w\tcoverage_w\tfmax\tprecision\trecall\tthreshold\tcoverage\tn\tsmin\ttau\tauprc_w\tauprc\n' +
        'NK\tBPO\t0.412\t0.398\t0.45\t0.44\t0.39\t0.97\t0.47\t0.5\t0.44\t0.42\t0.97\t120\t12.8\t0.42\t0.31\t0.36\n',
    },
  })
  @Get(':id/results/:rid/metrics.tsv')
  @Roles('guest')
  metricsTsv(
    @Param('id') id: string,
    @Param('rid') rid: string,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.evaluations.metricsTsv(id, rid, viewerOf(who));
  }

  @ApiDoc({
    summary: "A ZIP of the result's stored evaluator outputs",
    description:
      'Entries per category (`NK/evaluation_all.tsv`, `NK/evaluation_best.json`, `NK/ground_truth.tsv`, ' +
      '`NK/predictions.tsv`, `PK/known.tsv`...) and `summary.json`. 404 when no artifact is stored.',
    ok: {
      file: 'application/zip',
      example: 'PK\u0003\u0004 (deflate ZIP: NK/evaluation_all.tsv, ..., summary.json)',
    },
  })
  @Get(':id/results/:rid/artifacts.zip')
  @Roles('guest')
  artifactsZip(
    @Param('id') id: string,
    @Param('rid') rid: string,
    @CurrentPrincipal() who: Principal,
  ): Promise<StreamableFile> {
    return this.evaluations.artifactsZip(id, rid, viewerOf(who));
  }

  @ApiDoc({ summary: 'Delete an evaluation result and its stored artifacts' })
  @Delete(':id/results/:rid')
  @HttpCode(204)
  @Roles('operator')
  async removeResult(
    @Param('id') id: string,
    @Param('rid') rid: string,
    @CurrentPrincipal() who: Principal,
  ): Promise<void> {
    await this.evaluations.deleteResult(id, rid, viewerOf(who));
  }
}
