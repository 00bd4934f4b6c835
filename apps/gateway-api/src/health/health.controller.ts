import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DomainError, HealthView, ReadinessView } from '@svc/contracts';
import { checkReadiness, INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { Roles } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';

/** Liveness and readiness; mounted at the root only (no /v1 form). */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(@Inject(INFRASTRUCTURE) private readonly infra: Infrastructure) {}

  @ApiDoc({ summary: 'Liveness: the process answers', ok: HealthView })
  @Get()
  @Roles('guest')
  live(): HealthView {
    return { status: 'ok' };
  }

  @ApiDoc({
    summary: 'Readiness: the database and the message broker are reachable',
    description: '503 names the unreachable dependencies, with `checks` in the problem body.',
    ok: ReadinessView,
    problems: [503],
  })
  @Get('ready')
  @Roles('guest')
  async ready(): Promise<ReadinessView> {
    const report = await checkReadiness(this.infra.db, this.infra.broker);
    if (!report.ready) {
      throw new DomainError('service_unavailable', `not ready: ${report.failing.join(' and ')} unreachable`, {
        checks: report.checks,
      });
    }
    return { status: 'ready', checks: report.checks };
  }
}
