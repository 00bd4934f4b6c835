import { Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  CreateExperimentRunRequest,
  ListExperimentRunsQuery,
  UpdateExperimentRunRequest,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { ExperimentRunsService } from './experiment-runs.service';

@ApiTags('experiment-runs')
@Controller('experiment-runs')
export class ExperimentRunsController {
  constructor(private readonly runs: ExperimentRunsService) {}

  @Post()
  @HttpCode(201)
  @Roles('researcher')
  create(@ValidBody() body: CreateExperimentRunRequest, @CurrentPrincipal() who: Principal) {
    return this.runs.create(body, who);
  }

  @Get()
  @Roles('guest')
  list(@ValidQuery() query: ListExperimentRunsQuery, @CurrentPrincipal() who: Principal) {
    return this.runs.list(query, viewerOf(who));
  }

  @Get(':id')
  @Roles('guest')
  get(@Param('id') id: string, @CurrentPrincipal() who: Principal) {
    return this.runs.get(id, viewerOf(who));
  }

  @Patch(':id')
  @Roles('researcher')
  update(
    @Param('id') id: string,
    @ValidBody() body: UpdateExperimentRunRequest,
    @CurrentPrincipal() who: Principal,
  ) {
    return this.runs.update(id, body, viewerOf(who));
  }

  @Delete(':id')
  @HttpCode(204)
  @Roles('researcher')
  async remove(@Param('id') id: string, @CurrentPrincipal() who: Principal): Promise<void> {
    await this.runs.delete(id, viewerOf(who));
  }
}
