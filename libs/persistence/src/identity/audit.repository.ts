import { AuditAction, AuditEntryView } from '@svc/contracts';
import { Db, isoColumn, queryRows } from '../sql';

const AUDIT_COLUMNS = [
  'id::int AS id',
  'actor_user_id',
  'action',
  'target',
  'payload',
  isoColumn('occurred_at'),
].join(', ');

/** The append-only security log (a trigger refuses UPDATE and DELETE). */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  /** One entry: who acted (null for the system or a guest), what, on which row, with which details. */
  async record(
    actorUserId: string | null,
    action: AuditAction,
    target: string | null,
    payload: Record<string, unknown> = {},
  ): Promise<void> {
    await queryRows(
      this.db,
      `INSERT INTO audit_log (actor_user_id, action, target, payload) VALUES ($1, $2, $3, $4)`,
      [actorUserId, action, target, JSON.stringify(payload)],
    );
  }

  /** Newest first; `after` keeps entries strictly older than that time. */
  list(filter: {
    action?: AuditAction;
    actorUserId?: string;
    limit: number;
    after?: string;
  }): Promise<AuditEntryView[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, value: unknown): void => {
      params.push(value);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (filter.action !== undefined) add('action = ?', filter.action);
    if (filter.actorUserId !== undefined) add('actor_user_id = ?', filter.actorUserId);
    if (filter.after !== undefined) add('occurred_at < ?::timestamptz', filter.after);
    params.push(filter.limit);
    return queryRows<AuditEntryView>(
      this.db,
      `SELECT ${AUDIT_COLUMNS} FROM audit_log ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY occurred_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
  }
}
