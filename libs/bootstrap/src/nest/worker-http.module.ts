import {
  Controller,
  DynamicModule,
  Get,
  Header,
  Inject,
  Module,
  Res,
  ServiceUnavailableException,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { checkReadiness, Infrastructure } from '../process/infrastructure';

export const INFRASTRUCTURE = Symbol('INFRASTRUCTURE');

@Controller()
class WorkerHealthController {
  constructor(@Inject(INFRASTRUCTURE) private readonly infra: Infrastructure) {}

  @Get('health')
  health(): { status: string; service: string } {
    return { status: 'ok', service: this.infra.name };
  }

  @Get('health/ready')
  async ready(): Promise<{ status: string; checks: Record<string, string> }> {
    const report = await checkReadiness(this.infra.db, this.infra.broker);
    if (!report.ready) throw new ServiceUnavailableException(`not ready: ${report.failing.join(', ')} down`);
    return { status: 'ready', checks: report.checks };
  }

  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async metrics(@Res() reply: FastifyReply): Promise<void> {
    if (!this.infra.metrics.available) {
      await reply.status(503).type('text/plain').send('metrics library not installed');
      return;
    }
    await reply.type(this.infra.metrics.contentType).send(await this.infra.metrics.render());
  }
}

/** The small HTTP surface of a worker: /health, /health/ready and /metrics on SVC_METRICS_PORT. */
@Module({})
export class WorkerHttpModule {
  static forRoot(infra: Infrastructure): DynamicModule {
    return {
      module: WorkerHttpModule,
      controllers: [WorkerHealthController],
      providers: [{ provide: INFRASTRUCTURE, useValue: infra }],
    };
  }
}
