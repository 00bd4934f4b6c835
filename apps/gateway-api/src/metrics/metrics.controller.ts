import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DomainError } from '@svc/contracts';
import { INFRASTRUCTURE, Infrastructure } from '@svc/jobs';
import { Roles } from '@svc/platform';

@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(INFRASTRUCTURE) private readonly infra: Infrastructure) {}

  /** Prometheus text exposition; the pool gauge is refreshed by the scrape itself. */
  @Get()
  @Roles('guest')
  @Header('Cache-Control', 'no-store')
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    if (!this.infra.metrics.available) {
      throw new DomainError('service_unavailable', 'the metrics library (prom-client) is not installed');
    }
    await reply.type(this.infra.metrics.contentType).send(await this.infra.metrics.render());
  }
}
