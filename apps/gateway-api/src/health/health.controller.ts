import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DomainError } from '@svc/contracts';
import { checkReadiness, INFRASTRUCTURE, Infrastructure } from '@svc/jobs';
import { Roles } from '@svc/platform';

/** Liveness and readiness; mounted at the root only (no /v1 form). */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(@Inject(INFRASTRUCTURE) private readonly infra: Infrastructure) {}

  @Get()
  @Roles('guest')
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  @Roles('guest')
  async ready(): Promise<{ status: string; checks: Record<string, string> }> {
    const report = await checkReadiness(this.infra.db, this.infra.broker);
    if (!report.ready) {
      throw new DomainError('service_unavailable', `not ready: ${report.failing.join(' and ')} unreachable`, {
        checks: report.checks,
      });
    }
    return { status: 'ready', checks: report.checks };
  }
}
