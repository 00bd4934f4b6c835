import { Inject, Injectable } from '@nestjs/common';
import {
  CreateJobCommentRequest,
  CreateJobRequest,
  DomainError,
  findOperationSpec,
  isUuid,
  JobEntryPoint,
  JOB_COMMENTS_MAX_LIMIT,
  JOB_EVENTS_DEFAULT_LIMIT,
  JOB_LIST_DEFAULT_LIMIT,
  ListJobCommentsQuery,
  ListJobEventsQuery,
  ListJobsQuery,
  notFound,
  OperationSpec,
  QueuedJobView,
  Role,
} from '@svc/contracts';
import {
  DailyQuotaResource,
  RateLimitedResource,
  canModify,
  canRead,
  isStaff,
  listScope,
  ownershipForNew,
  Viewer,
} from '@svc/domain';
import { checkFollowUp, checkSubmission, readFollowUp, submitJob } from '@svc/jobs';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import {
  JobCommentRecord,
  JobCommentRepository,
  JobDeletion,
  JobEventRecord,
  JobEventRepository,
  JobRecord,
  JobRepository,
  ReferenceCheckRepository,
  ReferencePoolRepository,
} from '@svc/persistence';
import { assertJsonWithin, BrokerUnavailableError, Principal } from '@svc/platform';
import { GATEWAY_AUTH, GatewayAuth } from '../auth/guards';
import { quotaKeyOf } from '../auth/limits.service';
import { viewerOf } from '../common/viewer';
import { checkPayloadReferences } from './reference-checks';
import { checkPayloadSources } from '../sources/source-checks';

/** The daily quota of annotated sequences, charged by query count on every route that embeds or predicts. */
export const SEQUENCE_QUOTA: DailyQuotaResource = 'annotate_sequences';

/** Operations whose work grows with the sequences of their query set. */
const SEQUENCE_OPERATIONS = new Set(['compute_embeddings', 'predict_go_terms']);

interface DailyCharge {
  resource: DailyQuotaResource;
  amount: number;
}

/** The Jobs use cases: queue, read, cancel, delete and comment. */
@Injectable()
export class JobsService {
  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    @Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth,
    private readonly jobs: JobRepository,
    private readonly events: JobEventRepository,
    private readonly comments: JobCommentRepository,
    private readonly references: ReferenceCheckRepository,
    private readonly pools: ReferencePoolRepository,
  ) {}

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
      rateLimit: 'post_jobs',
      queueName: request.queue_name,
      meta: request.meta,
      description: request.description,
      tags: request.tags,
    });
  }

  /**
   * Queues an operation on the caller's behalf (also used by the dedicated endpoints). Every
   * submission passes the same checks (queue, role floor of its entry point, payload size and
   * schema, its follow-up checked as if queued directly); the daily quota is charged only once the
   * work is certain to be queued. The job records who it works for, so whatever it queues later is
   * checked as that caller.
   */
  async dispatch<P extends object>(
    spec: OperationSpec<P>,
    payload: NoInfer<P>,
    principal: Principal | undefined,
    extras: {
      queueName?: string;
      meta?: Record<string, unknown>;
      description?: string | null;
      tags?: string[];
      via?: JobEntryPoint;
      /** One-click annotation: false makes the job and what it produces unlisted and expiring. */
      saveHistory?: boolean;
      /** A per-user rate that counts only accepted submissions (POST /jobs). */
      rateLimit?: RateLimitedResource;
      /** The caller already paid the sequences (one-click annotation charges them by its upload). */
      sequencesCharged?: boolean;
    } = {},
  ): Promise<QueuedJobView> {
    const security = this.infra.config.security;
    const role = principal?.role ?? 'guest';
    const via = extras.via ?? 'api';
    const plainPayload = await checkSubmission({
      spec,
      queueName: extras.queueName,
      payload,
      role,
      via,
      payloadLimitBytes: security.jobPayloadLimitBytes,
      limits: security,
    });
    await checkPayloadSources(spec.name, plainPayload, this.infra);
    await checkPayloadReferences({
      spec,
      payload: plainPayload,
      viewer: viewerOf(principal),
      repository: this.references,
    });
    const meta = await this.checkMeta(extras.meta ?? {}, role, via, viewerOf(principal));
    const quotaKey = principal !== undefined ? quotaKeyOf(principal) : null;
    const ownership = ownershipForNew({ viewer: viewerOf(principal), saveHistory: extras.saveHistory });
    const submitted = await submitJob(
      {
        spec,
        payload: plainPayload,
        meta,
        description: extras.description ?? null,
        tags: extras.tags ?? [],
        dispatchDeadlineSeconds: this.infra.config.jobs.leaseSeconds,
        submitter: {
          ownerUserId: ownership.owner_user_id,
          role,
          via,
          quotaKey,
          visibility: ownership.visibility,
          expiresInDays: ownership.expiring ? security.guestResultRetentionDays : null,
        },
      },
      {
        findActive: (dedupKey) => this.jobs.findActiveByDedupKey(dedupKey),
        // Duplicates are the same submitter's only, so a 409 tells nothing of other people's jobs.
        onDuplicate: (existing) => Promise.reject(this.duplicateOf(spec.name, existing, principal)),
        beforeCharge: async () => {
          if (extras.rateLimit !== undefined && principal !== undefined)
            await this.auth.limits.checkAcceptedRate(extras.rateLimit, principal);
          if (!this.infra.broker.isConnected()) {
            throw new DomainError(
              'service_unavailable',
              'the message broker is not reachable; nothing was queued',
            );
          }
        },
        charge: () => this.charge(spec, plainPayload, meta, principal, extras.sequencesCharged === true),
        insert: (job) =>
          this.jobs.createQueued(job).catch(async (error: unknown) => {
            // An identical job won the race: the caller gets its 409.
            if (error instanceof DomainError && error.code === 'duplicate_job' && job.dedupKey !== null) {
              const winner = await this.jobs.findActiveByDedupKey(job.dedupKey);
              if (winner !== null) throw this.duplicateOf(spec.name, winner, principal);
            }
            throw error;
          }),
      },
    );
    if (submitted.kind !== 'inserted') throw new Error('a submission through the gateway never joins a job');
    const { job, release } = submitted;
    try {
      await this.infra.broker.publishJob(job.queue_name, { job_id: job.id });
    } catch (error) {
      await this.jobs.deleteUndispatched(job.id);
      await release();
      if (error instanceof BrokerUnavailableError) {
        throw new DomainError('service_unavailable', `${error.message}; nothing was queued`);
      }
      throw error;
    }
    await this.jobs.markDispatched(job.id);
    return { id: job.id, status: 'queued' };
  }

  list(query: ListJobsQuery, principal: Principal | undefined): Promise<JobRecord[]> {
    return this.jobs.list({
      scope: listScope(viewerOf(principal), query.mine ?? false),
      status: query.status,
      operation: query.operation,
      includeChildren: query.include_children ?? false,
      parentJobId: query.parent_job_id,
      limit: query.limit ?? JOB_LIST_DEFAULT_LIMIT,
      after: query.after,
    });
  }

  /** A job the caller may read; one they may not is as unknown as a missing one (404). */
  async get(id: string, principal: Principal | undefined): Promise<JobRecord> {
    const job = await this.jobs.getById(this.checkId(id));
    if (!canRead(viewerOf(principal), job)) throw notFound('Job');
    return job;
  }

  async listEvents(
    id: string,
    query: ListJobEventsQuery,
    principal: Principal | undefined,
  ): Promise<JobEventRecord[]> {
    await this.get(id, principal);
    return this.events.list(id, query.limit ?? JOB_EVENTS_DEFAULT_LIMIT, query.after);
  }

  async cancel(id: string, principal: Principal | undefined): Promise<JobRecord> {
    await this.requireModifiable(id, principal);
    return this.jobs.cancel(id);
  }

  async delete(id: string, principal: Principal | undefined): Promise<JobDeletion> {
    await this.requireModifiable(id, principal);
    return this.jobs.delete(id);
  }

  async addComment(
    id: string,
    request: CreateJobCommentRequest,
    principal: Principal | undefined,
  ): Promise<JobCommentRecord> {
    await this.requireModifiable(id, principal);
    // The author is the signed-in account's username, never what the client says; a caller without
    // an account (the credential gate off) writes without an author.
    return this.comments.create(id, request.body, principal?.userId ?? null);
  }

  async listComments(
    id: string,
    query: ListJobCommentsQuery,
    principal: Principal | undefined,
  ): Promise<JobCommentRecord[]> {
    await this.get(id, principal);
    return this.comments.list(id, query.limit ?? JOB_COMMENTS_MAX_LIMIT, query.after);
  }

  /**
   * 409 for an identical active job. Its id is named only to a caller who may read it: for an
   * unlisted job the id is the key to its results.
   */
  private duplicateOf(operation: string, existing: JobRecord, principal: Principal | undefined): DomainError {
    const readable = canRead(viewerOf(principal), existing) && existing.visibility !== 'unlisted';
    const own = existing.owner_user_id !== null && existing.owner_user_id === principal?.userId;
    return new DomainError(
      'duplicate_job',
      `an identical ${operation} job is already ${existing.status.toLowerCase()}`,
      readable || own || isStaff(viewerOf(principal)) ? { existing_job_id: existing.id } : {},
    );
  }

  /** Only the job's owner and staff change it: 404 when it is not even readable, else 403. */
  private async requireModifiable(id: string, principal: Principal | undefined): Promise<JobRecord> {
    const job = await this.get(id, principal);
    if (!canModify(viewerOf(principal), job))
      throw new DomainError('forbidden', 'only the job owner or an operator may change this job');
    return job;
  }

  /** The job's meta: within the payload limit, and a follow-up the caller could have queued directly. */
  private async checkMeta(
    meta: Record<string, unknown>,
    role: Role,
    via: JobEntryPoint,
    viewer: Viewer,
  ): Promise<Record<string, unknown>> {
    const limit = this.infra.config.security.jobPayloadLimitBytes;
    assertJsonWithin(meta, limit, 'the job meta');
    const followUp = readFollowUp(meta);
    if (followUp !== null) {
      // Checked as if queued directly: role floor, queue, schema, then its sources and rows.
      const checked = await checkFollowUp({
        followUp,
        role,
        via,
        payloadLimitBytes: limit,
        limits: this.infra.config.security,
      });
      await checkPayloadSources(checked.spec.name, checked.payload, this.infra);
      await checkPayloadReferences({
        spec: checked.spec,
        payload: checked.payload,
        viewer,
        repository: this.references,
      });
    }
    return JSON.parse(JSON.stringify(meta)) as Record<string, unknown>;
  }

  /**
   * The sequences a submission embeds or predicts (the entries of its query set), with those of the
   * follow-up it asks for; 0 for every other operation. Work without a query set is the whole pool,
   * which only staff may queue (`checkSubmission`) and staff have no sequence quota.
   */
  private async sequencesOf(
    spec: OperationSpec,
    payload: Record<string, unknown>,
    meta: Record<string, unknown>,
  ): Promise<number> {
    const count = async (operation: string, body: Record<string, unknown>) => {
      const querySet = body['query_set_id'];
      if (!SEQUENCE_OPERATIONS.has(operation) || typeof querySet !== 'string') return 0;
      return this.pools.countQueries('', querySet);
    };
    const followUp = readFollowUp(meta);
    return (
      (await count(spec.name, payload)) +
      (followUp === null ? 0 : await count(followUp.operation, followUp.payload))
    );
  }

  /**
   * Daily quotas: the job (researchers 100 a day by default, operators unlimited, administrators
   * exempt) and the sequences it embeds or predicts, its follow-up's included, whatever the route.
   * All or nothing; the answer gives the charge back.
   */
  private async charge(
    spec: OperationSpec,
    payload: Record<string, unknown>,
    meta: Record<string, unknown>,
    principal: Principal | undefined,
    sequencesCharged: boolean,
  ): Promise<{ release: () => Promise<void> }> {
    const charges: DailyCharge[] = [{ resource: 'jobs', amount: 1 }];
    // Counting the query set costs a query: only for callers with a sequence quota.
    const metered =
      principal !== undefined &&
      principal.kind !== 'gate_disabled' &&
      this.auth.limits.dailyLimit(SEQUENCE_QUOTA, principal.role) !== null;
    if (!sequencesCharged && metered)
      charges.push({ resource: SEQUENCE_QUOTA, amount: await this.sequencesOf(spec, payload, meta) });
    await this.consumeAll(principal, charges);
    return { release: () => this.releaseAll(principal, charges) };
  }

  /** Charges every daily quota or none: a refusal gives back what was charged before it. */
  private async consumeAll(principal: Principal | undefined, charges: DailyCharge[]): Promise<void> {
    if (principal === undefined) return;
    const done: DailyCharge[] = [];
    try {
      for (const charge of charges) {
        if (charge.amount <= 0) continue;
        await this.auth.limits.consumeDaily(principal, charge.resource, charge.amount);
        done.push(charge);
      }
    } catch (error) {
      await this.releaseAll(principal, done);
      throw error;
    }
  }

  private async releaseAll(principal: Principal | undefined, charges: DailyCharge[]): Promise<void> {
    if (principal === undefined) return;
    for (const charge of charges) {
      if (charge.amount > 0) await this.auth.limits.releaseDaily(principal, charge.resource, charge.amount);
    }
  }

  /** A malformed id cannot resolve to a job: 404, like an unknown one. */
  private checkId(id: string): string {
    if (!isUuid(id)) throw notFound('Job');
    return id;
  }
}
