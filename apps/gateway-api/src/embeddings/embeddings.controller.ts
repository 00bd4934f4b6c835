import { Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ComputeEmbeddingsPayload } from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidBody } from '@svc/platform';
import { EmbeddingsService } from './embeddings.service';

@ApiTags('embeddings')
@Controller('embeddings')
export class EmbeddingsController {
  constructor(private readonly embeddings: EmbeddingsService) {}

  @Get('configs')
  @Roles('guest')
  list() {
    return this.embeddings.listConfigs();
  }

  /** 201 with the canonical config when new, 200 when the same recipe already exists. */
  @Post('configs')
  @Roles('researcher')
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  async create(@ValidBody() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const { config, created } = await this.embeddings.createConfig(body);
    void reply.status(created ? 201 : 200);
    return config;
  }

  @Get('configs/:id')
  @Roles('guest')
  get(@Param('id') id: string) {
    return this.embeddings.getConfig(id);
  }

  @Delete('configs/:id')
  @Roles('operator')
  remove(@Param('id') id: string) {
    return this.embeddings.deleteConfig(id);
  }

  @Post('compute')
  @HttpCode(201)
  @Roles('operator')
  compute(@ValidBody() body: ComputeEmbeddingsPayload, @CurrentPrincipal() who: Principal) {
    return this.embeddings.compute(body, who);
  }
}

@ApiTags('maintenance')
@Controller('maintenance/unindexed-embeddings')
export class EmbeddingMaintenanceController {
  constructor(private readonly embeddings: EmbeddingsService) {}

  @Get()
  @Roles('operator')
  async count() {
    return { count: await this.embeddings.countUnindexed() };
  }

  @Delete()
  @Roles('operator')
  async remove() {
    return { deleted: await this.embeddings.deleteUnindexed() };
  }
}
