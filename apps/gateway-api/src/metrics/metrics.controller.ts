import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DomainError } from '@svc/contracts';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { Roles } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';

const METRICS_EXAMPLE = [
  '# HELP http_requests_total HTTP requests answered, by method, route and status',
  '# TYPE http_requests_total counter',
  'http_requests_total{method="GET",route="/v1/jobs",status="200"} 42',
].join('\n');

@ApiTags('metrics')
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(INFRASTRUCTURE) private readonly infra: Infrastructure) {}

  /** Prometheus text exposition; the pool gauge is refreshed by the scrape itself. */
  @ApiDoc({
    summary: 'Prometheus metrics (text exposition format)',
    description: '503 when the metrics library (prom-client) is not installed.',
    ok: { file: 'text/plain', example: METRICS_EXAMPLE },
    problems: [503],
  })
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
