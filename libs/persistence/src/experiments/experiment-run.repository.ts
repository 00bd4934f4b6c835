import { DataSource } from 'typeorm';
import { DomainError, notFound } from '@svc/contracts';
import { ExperimentStatus, ListScope, moveExperimentRun, Visibility } from '@svc/domain';
import { NewOwnership, ownershipCondition } from '../ownership';
import { isoColumn, isUniqueViolation, queryOne, queryRows } from '../sql';

const COLUMNS = [
  'id',
  'name',
  'status',
  'description',
  'hypothesis',
  'findings',
  'config',
  'provenance',
  'tags',
  isoColumn('started_at'),
  isoColumn('finished_at'),
  isoColumn('created_at'),
  'k',
  'plm',
  'propagation',
  'reranker_spec_id',
  'eval_set_name',
  'axis_tuple_shortid',
  'feature_schema_sha',
  'schema_sha_v2',
  'eval_set_manifest_sha',
  'ensemble_spec',
  'owner_user_id',
  'visibility',
].join(', ');

/** An experiment run as every read of it answers. */
export interface ExperimentRunRow {
  id: string;
  name: string;
  status: ExperimentStatus;
  description: string | null;
  hypothesis: string | null;
  findings: string | null;
  config: Record<string, unknown>;
  provenance: Record<string, unknown>;
  tags: string[];
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
  k: number | null;
  plm: string | null;
  propagation: string | null;
  reranker_spec_id: string | null;
  eval_set_name: string | null;
  axis_tuple_shortid: string | null;
  feature_schema_sha: string | null;
  schema_sha_v2: string | null;
  eval_set_manifest_sha: string | null;
  ensemble_spec: Record<string, unknown> | null;
  owner_user_id: string | null;
  visibility: Visibility;
}

export interface ExperimentRunChanges {
  description?: string | null;
  hypothesis?: string | null;
  findings?: string | null;
  status?: ExperimentStatus;
  config?: Record<string, unknown>;
  provenance?: Record<string, unknown>;
  tags?: string[];
}

/** Experiment runs: a research notebook entry with its status stamps. */
export class ExperimentRunRepository {
  constructor(private readonly db: DataSource) {}

  async create(input: {
    name: string;
    description: string | null;
    hypothesis: string | null;
    config: Record<string, unknown>;
    provenance: Record<string, unknown>;
    tags: string[];
    ownership: Omit<NewOwnership, 'expiresInDays'>;
  }): Promise<ExperimentRunRow> {
    try {
      const row = await queryOne<ExperimentRunRow>(
        this.db,
        `INSERT INTO experiment_run (name, description, hypothesis, config, provenance, tags, owner_user_id, visibility)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
        [
          input.name,
          input.description,
          input.hypothesis,
          JSON.stringify(input.config),
          JSON.stringify(input.provenance),
          input.tags,
          input.ownership.owner_user_id,
          input.ownership.visibility,
        ],
      );
      return row!;
    } catch (error) {
      // Names are unique per owner: the conflict is always with a run of the caller's own.
      if (isUniqueViolation(error, 'experiment_run_owner_name_uidx'))
        throw new DomainError(
          'conflict',
          `an experiment run named '${input.name}' already exists among the owner's runs`,
        );
      throw error;
    }
  }

  list(query: {
    scope: ListScope;
    status?: string;
    limit: number;
    after?: string;
  }): Promise<ExperimentRunRow[]> {
    const visible = ownershipCondition(query.scope, 4);
    return queryRows<ExperimentRunRow>(
      this.db,
      `SELECT ${COLUMNS} FROM experiment_run
        WHERE ($1::text IS NULL OR status = $1) AND ($2::timestamptz IS NULL OR created_at < $2::timestamptz)
          AND ${visible.sql}
        ORDER BY created_at DESC LIMIT $3`,
      [query.status ?? null, query.after ?? null, query.limit, ...visible.params],
    );
  }

  async get(id: string): Promise<ExperimentRunRow> {
    const row = await queryOne<ExperimentRunRow>(
      this.db,
      `SELECT ${COLUMNS} FROM experiment_run WHERE id = $1`,
      [id],
    );
    if (row === null) throw notFound('Experiment run');
    return row;
  }

  /** Applies the given fields (omitted ones untouched) and the status move with its stamps, atomically. */
  async update(id: string, changes: ExperimentRunChanges): Promise<ExperimentRunRow> {
    return this.db.transaction(async (tx) => {
      const current = await queryOne<{ status: ExperimentStatus }>(
        tx,
        `SELECT status FROM experiment_run WHERE id = $1 FOR UPDATE`,
        [id],
      );
      if (current === null) throw notFound('Experiment run');
      const move = changes.status !== undefined ? moveExperimentRun(current.status, changes.status) : null;
      if (changes.status !== undefined && move === null)
        throw new DomainError(
          'conflict',
          `an experiment run cannot move from ${current.status} to ${changes.status}`,
        );
      const sets: string[] = [];
      const params: unknown[] = [id];
      const set = (column: string, value: unknown): void => {
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      };
      for (const column of ['description', 'hypothesis', 'findings'] as const)
        if (changes[column] !== undefined) set(column, changes[column]);
      if (changes.config !== undefined) set('config', JSON.stringify(changes.config));
      if (changes.provenance !== undefined) set('provenance', JSON.stringify(changes.provenance));
      if (changes.tags !== undefined) set('tags', changes.tags);
      if (move !== null) {
        set('status', move.status);
        if (move.stampStarted) sets.push('started_at = COALESCE(started_at, clock_timestamp())');
        if (move.stampFinished) sets.push('finished_at = COALESCE(finished_at, clock_timestamp())');
      }
      if (sets.length > 0)
        await queryRows(tx, `UPDATE experiment_run SET ${sets.join(', ')} WHERE id = $1`, params);
      const row = await queryOne<ExperimentRunRow>(
        tx,
        `SELECT ${COLUMNS} FROM experiment_run WHERE id = $1`,
        [id],
      );
      return row!;
    });
  }

  async delete(id: string): Promise<void> {
    const rows = await queryRows(this.db, `DELETE FROM experiment_run WHERE id = $1 RETURNING id`, [id]);
    if (rows.length === 0) throw notFound('Experiment run');
  }
}
