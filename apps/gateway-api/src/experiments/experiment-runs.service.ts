import { Inject, Injectable } from '@nestjs/common';
import {
  CreateExperimentRunRequest,
  ListExperimentRunsQuery,
  UpdateExperimentRunRequest,
} from '@svc/contracts';
import { listScope, Viewer } from '@svc/domain';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { ExperimentRunRepository, ReferenceCheckRepository } from '@svc/persistence';
import { assertJsonWithin, Principal } from '@svc/platform';
import { checkAccess, newOwnershipFor } from '../common/ownership';

/** Experiment runs: a researcher's notebook entries, read and changed by their owner and staff. */
@Injectable()
export class ExperimentRunsService {
  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    private readonly runs: ExperimentRunRepository,
    private readonly references: ReferenceCheckRepository,
  ) {}

  create(body: CreateExperimentRunRequest, principal: Principal | undefined) {
    this.assertStorable(body);
    const ownership = newOwnershipFor({
      principal,
      retentionDays: this.infra.config.security.guestResultRetentionDays,
    });
    return this.runs.create({
      name: body.name,
      description: body.description ?? null,
      hypothesis: body.hypothesis ?? null,
      config: body.config ?? {},
      provenance: body.provenance ?? {},
      tags: body.tags ?? [],
      ownership: { owner_user_id: ownership.owner_user_id, visibility: ownership.visibility },
    });
  }

  list(query: ListExperimentRunsQuery, viewer: Viewer) {
    return this.runs.list({
      scope: listScope(viewer, query.mine ?? false),
      status: query.status,
      limit: query.limit ?? 50,
      after: query.after,
    });
  }

  async get(id: string, viewer: Viewer) {
    await this.require(id, viewer, 'read');
    return this.runs.get(id);
  }

  async update(id: string, body: UpdateExperimentRunRequest, viewer: Viewer) {
    this.assertStorable(body);
    await this.require(id, viewer, 'modify');
    return this.runs.update(id, body);
  }

  async delete(id: string, viewer: Viewer): Promise<void> {
    await this.require(id, viewer, 'modify');
    await this.runs.delete(id);
  }

  /** The free-form JSON is stored and served back, so it is capped like a job payload (413 over it). */
  private assertStorable(body: { config?: unknown; provenance?: unknown }): void {
    const limit = this.infra.config.security.jobPayloadLimitBytes;
    if (body.config !== undefined) assertJsonWithin(body.config, limit, 'config');
    if (body.provenance !== undefined) assertJsonWithin(body.provenance, limit, 'provenance');
  }

  private async require(id: string, viewer: Viewer, access: 'read' | 'modify'): Promise<void> {
    await checkAccess(this.references, {
      table: 'experiment_run',
      id,
      entity: 'Experiment run',
      viewer,
      access,
    });
  }
}
