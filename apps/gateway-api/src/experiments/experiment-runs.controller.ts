import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  CreateExperimentRunRequest,
  isUuid,
  ListExperimentRunsQuery,
  notFound,
  UpdateExperimentRunRequest,
} from '@svc/contracts';
import { INFRASTRUCTURE, Infrastructure } from '@svc/jobs';
import { ExperimentRunRepository } from '@svc/persistence';
import { Roles, ValidBody, ValidQuery } from '@svc/platform';

@ApiTags('experiment-runs')
@Controller('experiment-runs')
export class ExperimentRunsController {
  private readonly runs: ExperimentRunRepository;

  constructor(@Inject(INFRASTRUCTURE) infra: Infrastructure) {
    this.runs = new ExperimentRunRepository(infra.db);
  }

  @Post()
  @HttpCode(201)
  @Roles('researcher')
  create(@ValidBody() body: CreateExperimentRunRequest) {
    return this.runs.create({
      name: body.name,
      description: body.description ?? null,
      hypothesis: body.hypothesis ?? null,
      config: body.config ?? {},
      provenance: body.provenance ?? {},
      tags: body.tags ?? [],
    });
  }

  @Get()
  @Roles('guest')
  list(@ValidQuery() query: ListExperimentRunsQuery) {
    return this.runs.list({ status: query.status, limit: query.limit ?? 50, after: query.after });
  }

  @Get(':id')
  @Roles('guest')
  get(@Param('id') id: string) {
    return this.runs.get(this.uuid(id));
  }

  @Patch(':id')
  @Roles('researcher')
  update(@Param('id') id: string, @ValidBody() body: UpdateExperimentRunRequest) {
    return this.runs.update(this.uuid(id), body);
  }

  @Delete(':id')
  @HttpCode(204)
  @Roles('researcher')
  async remove(@Param('id') id: string): Promise<void> {
    await this.runs.delete(this.uuid(id));
  }

  private uuid(id: string): string {
    if (!isUuid(id)) throw notFound('Experiment run');
    return id;
  }
}
