import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { INFRASTRUCTURE, Infrastructure } from '@svc/jobs';
import { QueueStats, Roles } from '@svc/platform';

@ApiTags('workers')
@Controller('workers')
export class WorkersController {
  constructor(@Inject(INFRASTRUCTURE) private readonly infra: Infrastructure) {}

  /** Per queue: how many consumers are attached and how many messages wait. */
  @Get('status')
  @Roles('operator')
  async status(): Promise<{ queues: QueueStats[] }> {
    return { queues: await this.infra.broker.queueStats() };
  }
}
