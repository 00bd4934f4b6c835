import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { UploadedSourceView } from '@svc/contracts';
import { Roles } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';
import { MultipartBody } from '../http/multipart-body';
import { SourcesService } from './sources.service';

@ApiTags('sources')
@Controller('sources')
export class SourcesController {
  constructor(private readonly sources: SourcesService) {}

  /**
   * multipart/form-data: `file` (up to SVC_SOURCE_UPLOAD_LIMIT_BYTES). The answer's `uri` is accepted
   * as `obo_url`, `gaf_url`, `source_url`, `nodes_url`, `url`, `ia_file` and the like. Operators
   * only, like every load that reads a source.
   */
  @ApiDoc({ summary: 'Upload a source file for a load job to read', ok: UploadedSourceView })
  @Post()
  @HttpCode(201)
  @Roles('operator')
  @MultipartBody({
    files: { file: 'The file a load job will read (up to SVC_SOURCE_UPLOAD_LIMIT_BYTES)' },
    required: ['file'],
  })
  upload(@Req() request: FastifyRequest): Promise<UploadedSourceView> {
    return this.sources.upload(request);
  }
}
