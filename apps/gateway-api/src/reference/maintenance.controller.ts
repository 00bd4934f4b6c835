import { Controller, Delete, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { OrphanSequenceCountView, OrphanSequenceDeletionView } from '@svc/contracts';
import { Roles } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';
import { ReferenceService } from './reference.service';

@ApiTags('maintenance')
@Controller('maintenance')
export class MaintenanceController {
  constructor(private readonly reference: ReferenceService) {}

  @ApiDoc({ summary: 'Count sequences no protein or query-set entry uses', ok: OrphanSequenceCountView })
  @Get('orphan-sequences')
  @Roles('operator')
  async countOrphans(): Promise<OrphanSequenceCountView> {
    return { count: await this.reference.proteins.countOrphanSequences() };
  }

  @ApiDoc({ summary: 'Delete sequences no protein or query-set entry uses', ok: OrphanSequenceDeletionView })
  @Delete('orphan-sequences')
  @Roles('operator')
  async deleteOrphans(): Promise<OrphanSequenceDeletionView> {
    return { deleted: await this.reference.proteins.deleteOrphanSequences() };
  }
}
