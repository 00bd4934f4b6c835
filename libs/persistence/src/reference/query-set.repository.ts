import { DataSource } from 'typeorm';
import { notFound } from '@svc/contracts';
import { ListScope, Visibility } from '@svc/domain';
import { bulkInsert } from '../bulk';
import { expiresAtSql } from '../owned-rows';
import { NewOwnership, ownershipCondition } from '../ownership';
import { isoColumn, queryOne, queryRows } from '../sql';
import { ProteinRepository } from './protein.repository';

export interface QuerySetEntryInput {
  accession: string;
  sequence: string;
  hash: string;
  species: string | null;
  taxonomyId: number | null;
  /** The header's GN=, the symbol of the entry's GAF lines; null when it has none. */
  geneName: string | null;
  /** The header's GO=, the GO ids the submitter knows of the protein (checked); null when it has none. */
  knownGoIds?: string[] | null;
}

const OWNER_COLUMNS = `q.owner_user_id, q.visibility, ${isoColumn('q.expires_at', 'expires_at')}`;

/** A query set as its upload answers it. */
export interface QuerySetCreated {
  id: string;
  name: string;
  description: string | null;
  entry_count: number;
  unique_sequences: number;
  entries_with_known_terms: number;
}

/** A query set as lists and its detail read it. */
export interface QuerySetRow {
  id: string;
  name: string;
  description: string | null;
  created_at: string;
  owner_user_id: string | null;
  visibility: Visibility;
  expires_at: string | null;
  entry_count: number;
}

/** One record of a query set. */
export interface QuerySetEntryRow {
  id: number;
  accession: string;
  sequence_id: number;
  species: string | null;
  taxonomy_id: number | null;
  gene_name: string | null;
  /** The GO ids its header said are known (GO=); null when it said none. */
  known_go_ids: string[] | null;
  length: number;
  sequence_hash: string;
  created_at: string;
}

export class QuerySetRepository {
  constructor(private readonly db: DataSource) {}

  /** How many query sets an account keeps (its history and its unlisted one-click uploads). */
  async countOwnedBy(ownerUserId: string): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.db,
      `SELECT count(*)::int AS n FROM query_set WHERE owner_user_id = $1`,
      [ownerUserId],
    );
    return row?.n ?? 0;
  }

  /** One set, one sequence row per distinct amino-acid string, one entry per record; all in one transaction. */
  async create(input: {
    name: string;
    description: string | null;
    entries: QuerySetEntryInput[];
    ownership: NewOwnership;
  }): Promise<QuerySetCreated> {
    return this.db.transaction(async (tx) => {
      const set = await queryOne<{ id: string }>(
        tx,
        `INSERT INTO query_set (name, description, owner_user_id, visibility, expires_at)
         VALUES ($1, $2, $3, $4, ${expiresAtSql(5)}) RETURNING id`,
        [
          input.name,
          input.description,
          input.ownership.owner_user_id,
          input.ownership.visibility,
          input.ownership.expiresInDays,
        ],
      );
      const ids = await new ProteinRepository(this.db).upsertSequences(
        tx,
        input.entries.map((e) => ({ sequence: e.sequence, hash: e.hash })),
      );
      await bulkInsert(tx, {
        table: 'query_set_entry',
        columns: [
          { name: 'query_set_id', type: 'uuid' },
          { name: 'accession', type: 'text' },
          { name: 'sequence_id', type: 'int' },
          { name: 'species', type: 'text' },
          { name: 'taxonomy_id', type: 'int' },
          { name: 'gene_name', type: 'text' },
          { name: 'known_go_ids', type: 'jsonb' },
        ],
        rows: input.entries.map((e) => [
          set!.id,
          e.accession,
          ids.get(e.hash),
          e.species,
          e.taxonomyId,
          e.geneName,
          e.knownGoIds === null || e.knownGoIds === undefined ? null : JSON.stringify(e.knownGoIds),
        ]),
      });
      return {
        id: set!.id,
        name: input.name,
        description: input.description,
        entry_count: input.entries.length,
        unique_sequences: ids.size,
        entries_with_known_terms: input.entries.filter((e) => (e.knownGoIds ?? null) !== null).length,
      };
    });
  }

  /** The sets a list scope may see, newest first. */
  list(scope: ListScope): Promise<QuerySetRow[]> {
    const visible = ownershipCondition(scope, 1, 'q');
    return queryRows<QuerySetRow>(
      this.db,
      `SELECT q.id, q.name, q.description, ${isoColumn('q.created_at', 'created_at')}, ${OWNER_COLUMNS},
              (SELECT count(*)::int FROM query_set_entry e WHERE e.query_set_id = q.id) AS entry_count
         FROM query_set q WHERE ${visible.sql} ORDER BY q.created_at DESC`,
      visible.params,
    );
  }

  async detail(id: string): Promise<QuerySetRow & { entries: QuerySetEntryRow[] }> {
    const set = await queryOne<Omit<QuerySetRow, 'entry_count'>>(
      this.db,
      `SELECT q.id, q.name, q.description, ${isoColumn('q.created_at', 'created_at')}, ${OWNER_COLUMNS}
         FROM query_set q WHERE q.id = $1`,
      [id],
    );
    if (set === null) throw notFound('Query set');
    const entries = await queryRows<QuerySetEntryRow>(
      this.db,
      `SELECT e.id, e.accession, e.sequence_id, e.species, e.taxonomy_id, e.gene_name, e.known_go_ids, length(s.sequence) AS length,
              s.sequence_hash,
              ${isoColumn('e.created_at', 'created_at')}
         FROM query_set_entry e JOIN sequence s ON s.id = e.sequence_id WHERE e.query_set_id = $1 ORDER BY e.id`,
      [id],
    );
    return { ...set, entry_count: entries.length, entries };
  }

  async delete(id: string): Promise<{ id: string; deleted: boolean; entries_deleted: number }> {
    return this.db.transaction(async (tx) => {
      const entries = await queryOne<{ n: number }>(
        tx,
        `SELECT count(*)::int AS n FROM query_set_entry WHERE query_set_id = $1`,
        [id],
      );
      const gone = await queryRows(tx, `DELETE FROM query_set WHERE id = $1 RETURNING id`, [id]);
      if (gone.length === 0) throw notFound('Query set');
      return { id, deleted: true, entries_deleted: entries?.n ?? 0 };
    });
  }
}
