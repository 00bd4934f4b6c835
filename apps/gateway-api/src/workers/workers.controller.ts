import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WorkersStatusView } from '@svc/contracts';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { Roles } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';

@ApiTags('workers')
@Controller('workers')
export class WorkersController {
  constructor(@Inject(INFRASTRUCTURE) private readonly infra: Infrastructure) {}

  /** Per queue: how many consumers are attached and how many messages wait. */
  @ApiDoc({
    summary: 'Per queue: attached consumers and waiting messages',
    ok: WorkersStatusView,
    problems: [503],
  })
  @Get('status')
  @Roles('operator')
  async status(): Promise<WorkersStatusView> {
    return { queues: await this.infra.broker.queueStats() };
  }
}
