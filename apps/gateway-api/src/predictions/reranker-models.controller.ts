import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiTags } from '@nestjs/swagger';
import { ImportRerankerByReferenceRequest, RerankerView } from '@svc/contracts';
import { Roles, ValidBody } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';
import { MultipartBody } from '../http/multipart-body';
import { readMultipart } from '../reference/multipart';
import { RerankersService } from './rerankers.service';

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
