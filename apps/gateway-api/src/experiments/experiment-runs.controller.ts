import { Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  CreateExperimentRunRequest,
  ExperimentRunView,
  ListExperimentRunsQuery,
  UpdateExperimentRunRequest,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { ApiDoc } from '../http/api-doc';
import { ExperimentRunsService } from './experiment-runs.service';

@ApiTags('experiment-runs')
@Controller('experiment-runs')
export class ExperimentRunsController {
  constructor(private readonly runs: ExperimentRunsService) {}

  @ApiDoc({ summary: 'Create an experiment run (a notebook entry)', ok: ExperimentRunView, problems: [409] })
  @Post()
  @HttpCode(201)
  @Roles('researcher')
  create(@ValidBody() body: CreateExperimentRunRequest, @CurrentPrincipal() who: Principal) {
    return this.runs.create(body, who);
  }

  @ApiDoc({ summary: 'List the experiment runs the caller may see, newest first', ok: [ExperimentRunView] })
  @Get()
  @Roles('guest')
  list(@ValidQuery() query: ListExperimentRunsQuery, @CurrentPrincipal() who: Principal) {
    return this.runs.list(query, viewerOf(who));
  }

  @ApiDoc({ summary: 'One experiment run', ok: ExperimentRunView })
  @Get(':id')
  @Roles('guest')
  get(@Param('id') id: string, @CurrentPrincipal() who: Principal) {
    return this.runs.get(id, viewerOf(who));
  }

  @ApiDoc({
    summary: "Change an experiment run's notes, config or tags, or move its status",
    ok: ExperimentRunView,
    problems: [409],
  })
  @Patch(':id')
  @Roles('researcher')
  update(
    @Param('id') id: string,
    @ValidBody() body: UpdateExperimentRunRequest,
    @CurrentPrincipal() who: Principal,
  ) {
    return this.runs.update(id, body, viewerOf(who));
  }

  @ApiDoc({ summary: 'Delete an experiment run' })
  @Delete(':id')
  @HttpCode(204)
  @Roles('researcher')
  async remove(@Param('id') id: string, @CurrentPrincipal() who: Principal): Promise<void> {
    await this.runs.delete(id, viewerOf(who));
  }
}
