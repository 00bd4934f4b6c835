import { Inject, Injectable } from '@nestjs/common';
import {
  ApproveUserRequest,
  AuditEntryView,
  DomainError,
  ListAuditQuery,
  RpcActor,
  UpdateUserRequest,
  UserStatus,
  UserView,
} from '@svc/contracts';
import { AuditRepository, resetDatabase, SessionRepository, UserRepository } from '@svc/persistence';
import { AUTH_CONTEXT, AuthContext } from '../auth-context';
import { BootstrapService } from './bootstrap.service';

/** Administration: approvals, roles, deactivation, deletion, session revocation, audit, reset. */
@Injectable()
export class AdminService {
  constructor(
    @Inject(AUTH_CONTEXT) private readonly ctx: AuthContext,
    private readonly bootstrap: BootstrapService,
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly audit: AuditRepository,
  ) {}

  listUsers(body: { status?: UserStatus }): Promise<UserView[]> {
    return this.users.list(body.status);
  }

  async approve(body: { id: string } & ApproveUserRequest, actor: RpcActor): Promise<UserView> {
    const user = await this.users.getById(body.id);
    if (user.status !== 'pending')
      throw new DomainError('conflict', `the account is ${user.status}, not pending`);
    const updated = await this.users.update(body.id, { status: 'active', role: body.role ?? 'researcher' });
    await this.audit.record(actor.userId, 'admin_approve', body.id, { role: updated.role });
    return updated;
  }

  async update(body: { id: string } & UpdateUserRequest, actor: RpcActor): Promise<UserView> {
    const before = await this.users.getById(body.id);
    if (
      body.id === actor.userId &&
      (body.status === 'deactivated' || (body.role !== undefined && body.role !== 'admin'))
    ) {
      throw new DomainError('conflict', 'administrators cannot demote or deactivate themselves');
    }
    const updated = await this.users.update(body.id, { role: body.role, status: body.status });
    if (body.role !== undefined && body.role !== before.role) {
      await this.audit.record(actor.userId, 'role_change', body.id, { from: before.role, to: body.role });
    }
    if (body.status !== undefined && body.status !== before.status) {
      if (body.status === 'deactivated') {
        const revoked = await this.sessions.revokeAllForUser(body.id);
        await this.audit.record(actor.userId, 'deactivate', body.id, { sessions_revoked: revoked });
      } else {
        await this.audit.record(actor.userId, 'admin_approve', body.id, { from: before.status });
      }
    }
    return updated;
  }

  async remove(body: { id: string }, actor: RpcActor): Promise<{ id: string; deleted: boolean }> {
    if (body.id === actor.userId)
      throw new DomainError('conflict', 'administrators cannot delete their own account');
    const user = await this.users.getById(body.id);
    await this.users.delete(body.id);
    await this.audit.record(actor.userId, 'user_deleted', body.id, { email: user.email });
    return { id: body.id, deleted: true };
  }

  async revokeSessions(
    body: { user_id: string },
    actor: RpcActor,
  ): Promise<{ user_id: string; sessions_revoked: number }> {
    await this.users.getById(body.user_id);
    const count = await this.sessions.revokeAllForUser(body.user_id);
    await this.audit.record(actor.userId, 'sessions_revoked', body.user_id, { count });
    return { user_id: body.user_id, sessions_revoked: count };
  }

  listAudit(query: ListAuditQuery): Promise<AuditEntryView[]> {
    return this.audit.list({
      action: query.action,
      actorUserId: query.actor_user_id,
      limit: query.limit ?? 100,
      after: query.after,
    });
  }

  /** Drops and recreates the schema, then records the reset and re-creates the bootstrap admin. */
  async resetDb(_: unknown, actor: RpcActor): Promise<{ reset: true; migrations_applied: string[] }> {
    const applied = await resetDatabase(this.ctx.infra.db);
    await this.audit.record(actor.userId, 'db_reset', null, { migrations_applied: applied });
    await this.bootstrap.ensureAdmin();
    return { reset: true, migrations_applied: applied };
  }
}
