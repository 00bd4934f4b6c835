import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { BenchmarkEmbeddingView, BenchmarkMatrixView } from '@svc/contracts';
import { Roles } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';
import { EvaluationsService } from './evaluations.service';

@ApiTags('benchmark')
@Controller('benchmark')
export class BenchmarkController {
  constructor(private readonly evaluations: EvaluationsService) {}

  @ApiDoc({
    summary: 'The benchmark matrix: one cell per (embedding, stage) over every published result',
    ok: BenchmarkMatrixView,
  })
  @Get('matrix')
  @Roles('guest')
  matrix(): Promise<BenchmarkMatrixView> {
    return this.evaluations.matrix();
  }

  @ApiDoc({ summary: 'Embedding configs with published evaluation results', ok: [BenchmarkEmbeddingView] })
  @Get('embeddings')
  @Roles('guest')
  embeddings(): Promise<BenchmarkEmbeddingView[]> {
    return this.evaluations.benchmarkEmbeddings();
  }
}
