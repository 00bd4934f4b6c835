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
import { CurrentPrincipal, Principal, RateLimitOnAccept, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { JobsService } from './jobs.service';

@ApiTags('jobs')
@Controller('jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Post()
  @Roles('researcher')
  @RateLimitOnAccept('post_jobs')
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
  list(
    @ValidQuery() query: ListJobsQuery,
    @CurrentPrincipal() who: Principal | undefined,
  ): Promise<JobRecord[]> {
    return this.jobs.list(query, who);
  }

  @Get(':id')
  @Roles('guest')
  @ApiOkResponse({ type: JobView })
  get(@Param('id') id: string, @CurrentPrincipal() who: Principal | undefined): Promise<JobRecord> {
    return this.jobs.get(id, who);
  }

  @Get(':id/events')
  @Roles('guest')
  @ApiOkResponse({ type: [JobEventView] })
  events(
    @Param('id') id: string,
    @ValidQuery() query: ListJobEventsQuery,
    @CurrentPrincipal() who: Principal | undefined,
  ): Promise<JobEventRecord[]> {
    return this.jobs.listEvents(id, query, who);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Roles('researcher')
  @ApiOkResponse({ type: JobView })
  cancel(@Param('id') id: string, @CurrentPrincipal() who: Principal | undefined): Promise<JobRecord> {
    return this.jobs.cancel(id, who);
  }

  @Delete(':id')
  @Roles('researcher')
  @ApiOkResponse({ type: JobDeletionView })
  remove(@Param('id') id: string, @CurrentPrincipal() who: Principal | undefined): Promise<JobDeletion> {
    return this.jobs.delete(id, who);
  }

  @Post(':id/comments')
  @HttpCode(201)
  @Roles('researcher')
  @ApiOkResponse({ type: JobCommentView })
  comment(
    @Param('id') id: string,
    @ValidBody() body: CreateJobCommentRequest,
    @CurrentPrincipal() who: Principal | undefined,
  ): Promise<JobCommentRecord> {
    return this.jobs.addComment(id, body, who);
  }

  @Get(':id/comments')
  @Roles('guest')
  @ApiOkResponse({ type: [JobCommentView] })
  comments(
    @Param('id') id: string,
    @ValidQuery() query: ListJobCommentsQuery,
    @CurrentPrincipal() who: Principal | undefined,
  ): Promise<JobCommentRecord[]> {
    return this.jobs.listComments(id, query, who);
  }
}
