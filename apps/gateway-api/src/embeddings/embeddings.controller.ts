import { Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  ComputeEmbeddingsPayload,
  EmbeddingConfigDeletionView,
  EmbeddingConfigView,
  QueuedJobView,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidBody } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { ApiDoc, QueueDoc } from '../http/api-doc';
import { EmbeddingsService } from './embeddings.service';

@ApiTags('embeddings')
@Controller('embeddings')
export class EmbeddingsController {
  constructor(private readonly embeddings: EmbeddingsService) {}

  @ApiDoc({
    summary: 'List embedding configs with their embedding counts, newest first',
    ok: [EmbeddingConfigView],
  })
  @Get('configs')
  @Roles('guest')
  list(@CurrentPrincipal() who: Principal): Promise<EmbeddingConfigView[]> {
    return this.embeddings.listConfigs(viewerOf(who));
  }

  /** 201 with the canonical config when new, 200 when the same recipe already exists. */
  @ApiDoc({
    summary: 'Create an embedding config (an immutable recipe)',
    description:
      '201 with the canonical config (defaults filled in) when the recipe is new; 200 with the existing config when the same recipe already exists.',
    ok: EmbeddingConfigView,
  })
  // The route has two success statuses; @ApiDoc documents the 201, this the 200.
  @ApiResponse({
    status: 200,
    description: 'The same recipe already exists: its config',
    type: EmbeddingConfigView,
  })
  @Post('configs')
  @Roles('researcher')
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  async create(
    @ValidBody() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentPrincipal() who: Principal,
  ): Promise<EmbeddingConfigView> {
    const { config, created } = await this.embeddings.createConfig(body, viewerOf(who));
    void reply.status(created ? 201 : 200);
    return config;
  }

  @ApiDoc({ summary: 'One embedding config', ok: EmbeddingConfigView })
  @Get('configs/:id')
  @Roles('guest')
  get(@Param('id') id: string, @CurrentPrincipal() who: Principal): Promise<EmbeddingConfigView> {
    return this.embeddings.getConfig(id, viewerOf(who));
  }

  @ApiDoc({
    summary: 'Delete an embedding config with its embeddings, prediction sets and predictions',
    ok: EmbeddingConfigDeletionView,
  })
  @Delete('configs/:id')
  @Roles('operator')
  remove(@Param('id') id: string) {
    return this.embeddings.deleteConfig(id);
  }

  @QueueDoc('Queue a compute_embeddings job for a query set or every protein')
  @Post('compute')
  @HttpCode(201)
  @Roles('operator')
  compute(
    @ValidBody() body: ComputeEmbeddingsPayload,
    @CurrentPrincipal() who: Principal,
  ): Promise<QueuedJobView> {
    return this.embeddings.compute(body, who);
  }
}
