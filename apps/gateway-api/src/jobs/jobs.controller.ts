import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
import { ApiDoc, QueueDoc } from '../http/api-doc';
import { JobsService } from './jobs.service';

@ApiTags('jobs')
@Controller('jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @QueueDoc('Queue a job for an operation')
  @Post()
  @Roles('researcher')
  @RateLimitOnAccept('post_jobs')
  create(
    @ValidBody() body: CreateJobRequest,
    @CurrentPrincipal() who: Principal | undefined,
  ): Promise<QueuedJobView> {
    return this.jobs.enqueue(body, who);
  }

  @ApiDoc({ summary: 'List jobs, newest first', ok: [JobView] })
  @Get()
  @Roles('guest')
  list(
    @ValidQuery() query: ListJobsQuery,
    @CurrentPrincipal() who: Principal | undefined,
  ): Promise<JobRecord[]> {
    return this.jobs.list(query, who);
  }

  @ApiDoc({ summary: 'One job: status, progress, result, error', ok: JobView })
  @Get(':id')
  @Roles('guest')
  get(@Param('id') id: string, @CurrentPrincipal() who: Principal | undefined): Promise<JobRecord> {
    return this.jobs.get(id, who);
  }

  @ApiDoc({ summary: "A job's events, newest first", ok: [JobEventView] })
  @Get(':id/events')
  @Roles('guest')
  events(
    @Param('id') id: string,
    @ValidQuery() query: ListJobEventsQuery,
    @CurrentPrincipal() who: Principal | undefined,
  ): Promise<JobEventRecord[]> {
    return this.jobs.listEvents(id, query, who);
  }

  @ApiDoc({ summary: 'Cancel a queued or running job', ok: JobView, problems: [409] })
  @Post(':id/cancel')
  @HttpCode(200)
  @Roles('researcher')
  cancel(@Param('id') id: string, @CurrentPrincipal() who: Principal | undefined): Promise<JobRecord> {
    return this.jobs.cancel(id, who);
  }

  @ApiDoc({
    summary: 'Delete a finished job with its events, comments and child jobs',
    ok: JobDeletionView,
    problems: [409],
  })
  @Delete(':id')
  @Roles('researcher')
  remove(@Param('id') id: string, @CurrentPrincipal() who: Principal | undefined): Promise<JobDeletion> {
    return this.jobs.delete(id, who);
  }

  @ApiDoc({ summary: 'Comment on a job', ok: JobCommentView })
  @Post(':id/comments')
  @HttpCode(201)
  @Roles('researcher')
  comment(
    @Param('id') id: string,
    @ValidBody() body: CreateJobCommentRequest,
    @CurrentPrincipal() who: Principal | undefined,
  ): Promise<JobCommentRecord> {
    return this.jobs.addComment(id, body, who);
  }

  @ApiDoc({ summary: "A job's comments", ok: [JobCommentView] })
  @Get(':id/comments')
  @Roles('guest')
  comments(
    @Param('id') id: string,
    @ValidQuery() query: ListJobCommentsQuery,
    @CurrentPrincipal() who: Principal | undefined,
  ): Promise<JobCommentRecord[]> {
    return this.jobs.listComments(id, query, who);
  }
}
