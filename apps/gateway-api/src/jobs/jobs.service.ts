import { Inject, Injectable } from '@nestjs/common';
import {
  CreateJobCommentRequest,
  CreateJobRequest,
  DomainError,
  findOperationSpec,
  hasRoleAtLeast,
  isUuid,
  JOB_COMMENTS_MAX_LIMIT,
  JOB_EVENTS_DEFAULT_LIMIT,
  JOB_LIST_DEFAULT_LIMIT,
  ListJobCommentsQuery,
  ListJobEventsQuery,
  ListJobsQuery,
  notFound,
  OperationSpec,
  QueuedJobView,
} from '@svc/contracts';
import { computeDedupKey } from '@svc/domain';
import { INFRASTRUCTURE, Infrastructure } from '@svc/jobs';
import {
  JobCommentRecord,
  JobCommentRepository,
  JobDeletion,
  JobEventRecord,
  JobEventRepository,
  JobRecord,
  JobRepository,
} from '@svc/persistence';
import { BrokerUnavailableError, Principal } from '@svc/platform';
import { GATEWAY_AUTH, GatewayAuth } from '../auth/guards';

/** The Jobs use cases: queue, read, cancel, delete and comment. */
@Injectable()
export class JobsService {
  private readonly jobs: JobRepository;
  private readonly events: JobEventRepository;
  private readonly comments: JobCommentRepository;

  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    @Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth,
  ) {
    this.jobs = new JobRepository(infra.db);
    this.events = new JobEventRepository(infra.db);
    this.comments = new JobCommentRepository(infra.db);
  }

  /**
   * Dispatch order of the specification: validate; insert the QUEUED row and `job.created`; commit;
   * publish the id; answer `{id, status: 'queued'}`. When the broker does not confirm the publish the
   * row is removed again and the caller gets 503, so no job is left that nobody will receive.
   */
  async enqueue(request: CreateJobRequest, principal: Principal | undefined): Promise<QueuedJobView> {
    const spec = findOperationSpec(request.operation);
    if (spec === undefined) {
      throw new DomainError('validation_error', `unknown operation '${request.operation}'`, {}, [
        { path: 'operation', message: `unknown operation '${request.operation}'` },
      ]);
    }
    return this.dispatch(spec, request.payload ?? {}, principal, {
      queueName: request.queue_name,
      meta: request.meta,
      description: request.description,
      tags: request.tags,
    });
  }

  /**
   * Queues an operation (also used by the dedicated endpoints, whose bodies are the operation's
   * payload and are validated before they get here).
   */
  async dispatch(
    spec: OperationSpec,
    payload: object,
    principal: Principal | undefined,
    extras: {
      queueName?: string;
      meta?: Record<string, unknown>;
      description?: string | null;
      tags?: string[];
    } = {},
  ): Promise<QueuedJobView> {
    const role = principal?.role ?? 'guest';
    if (!hasRoleAtLeast(role, spec.roleFloor)) {
      throw new DomainError('forbidden', `operation ${spec.name} needs role ${spec.roleFloor}`);
    }
    // Daily job quota: researchers 100 a day by default, operators unlimited, administrators exempt.
    if (principal !== undefined) await this.auth.limits.consumeDaily(principal, 'jobs');
    if (!this.infra.broker.isConnected()) {
      throw new DomainError('service_unavailable', 'the message broker is not reachable; nothing was queued');
    }
    const plainPayload = JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
    const job = await this.jobs.createQueued({
      operation: spec.name,
      queueName: extras.queueName ?? spec.queue,
      payload: plainPayload,
      meta: extras.meta ?? {},
      description: extras.description ?? null,
      tags: extras.tags ?? [],
      dedupKey: computeDedupKey({ operation: spec.name, payload: plainPayload }),
      dispatchDeadlineSeconds: this.infra.config.jobs.leaseSeconds,
    });
    try {
      await this.infra.broker.publishJob(job.queue_name, { job_id: job.id });
    } catch (error) {
      await this.jobs.deleteUndispatched(job.id);
      if (error instanceof BrokerUnavailableError) {
        throw new DomainError('service_unavailable', `${error.message}; nothing was queued`);
      }
      throw error;
    }
    await this.jobs.markDispatched(job.id);
    return { id: job.id, status: 'queued' };
  }

  list(query: ListJobsQuery): Promise<JobRecord[]> {
    return this.jobs.list({
      status: query.status,
      operation: query.operation,
      includeChildren: query.include_children ?? false,
      parentJobId: query.parent_job_id,
      limit: query.limit ?? JOB_LIST_DEFAULT_LIMIT,
      after: query.after,
    });
  }

  async get(id: string): Promise<JobRecord> {
    return this.jobs.getById(this.checkId(id));
  }

  async listEvents(id: string, query: ListJobEventsQuery): Promise<JobEventRecord[]> {
    await this.get(id);
    return this.events.list(id, query.limit ?? JOB_EVENTS_DEFAULT_LIMIT, query.after);
  }

  cancel(id: string): Promise<JobRecord> {
    return this.jobs.cancel(this.checkId(id));
  }

  delete(id: string): Promise<JobDeletion> {
    return this.jobs.delete(this.checkId(id));
  }

  async addComment(id: string, request: CreateJobCommentRequest): Promise<JobCommentRecord> {
    await this.get(id);
    return this.comments.create(id, request.body, request.author ?? null);
  }

  async listComments(id: string, query: ListJobCommentsQuery): Promise<JobCommentRecord[]> {
    await this.get(id);
    return this.comments.list(id, query.limit ?? JOB_COMMENTS_MAX_LIMIT, query.after);
  }

  /** A malformed id cannot resolve to a job: 404, like an unknown one. */
  private checkId(id: string): string {
    if (!isUuid(id)) throw notFound('Job');
    return id;
  }
}
