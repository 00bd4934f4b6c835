import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  CreateJobCommentRequest,
  CreateJobRequest,
  JobCommentView,
  JobDeletionView,
  JobEventView,
  JobView,
  ListJobCommentsQuery,
  ListJobEventsQuery,
  ListJobsQuery,
  QueuedJobView,
} from '@svc/contracts';
import { JobCommentRecord, JobDeletion, JobEventRecord, JobRecord } from '@svc/persistence';
import { CurrentPrincipal, Principal, RateLimit, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { JobsService } from './jobs.service';

@ApiTags('jobs')
@Controller('jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Post()
  @Roles('researcher')
  @RateLimit('post_jobs')
  @ApiOkResponse({ type: QueuedJobView })
  create(
    @ValidBody() body: CreateJobRequest,
    @CurrentPrincipal() who: Principal | undefined,
  ): Promise<QueuedJobView> {
    return this.jobs.enqueue(body, who);
  }

  @Get()
  @Roles('guest')
  @ApiOkResponse({ type: [JobView] })
  list(@ValidQuery() query: ListJobsQuery): Promise<JobRecord[]> {
    return this.jobs.list(query);
  }

  @Get(':id')
  @Roles('guest')
  @ApiOkResponse({ type: JobView })
  get(@Param('id') id: string): Promise<JobRecord> {
    return this.jobs.get(id);
  }

  @Get(':id/events')
  @Roles('guest')
  @ApiOkResponse({ type: [JobEventView] })
  events(@Param('id') id: string, @ValidQuery() query: ListJobEventsQuery): Promise<JobEventRecord[]> {
    return this.jobs.listEvents(id, query);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Roles('researcher')
  @ApiOkResponse({ type: JobView })
  cancel(@Param('id') id: string): Promise<JobRecord> {
    return this.jobs.cancel(id);
  }

  @Delete(':id')
  @Roles('researcher')
  @ApiOkResponse({ type: JobDeletionView })
  remove(@Param('id') id: string): Promise<JobDeletion> {
    return this.jobs.delete(id);
  }

  @Post(':id/comments')
  @HttpCode(201)
  @Roles('researcher')
  @ApiOkResponse({ type: JobCommentView })
  comment(@Param('id') id: string, @ValidBody() body: CreateJobCommentRequest): Promise<JobCommentRecord> {
    return this.jobs.addComment(id, body);
  }

  @Get(':id/comments')
  @Roles('guest')
  @ApiOkResponse({ type: [JobCommentView] })
  comments(@Param('id') id: string, @ValidQuery() query: ListJobCommentsQuery): Promise<JobCommentRecord[]> {
    return this.jobs.listComments(id, query);
  }
}
