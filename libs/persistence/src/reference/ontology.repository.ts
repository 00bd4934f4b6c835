import { DataSource } from 'typeorm';
import { notFound } from '@svc/contracts';
import { oboContentSha256, type OboDocument } from '@svc/domain';
import { bulkInsert } from '../bulk';
import { Db, isoColumn, queryOne, queryRows, takeTurns } from '../sql';
import { loadOboDocument } from '../evaluations/ontology-document';

export interface SnapshotView {
  id: string;
  obo_version: string;
  obo_url: string;
  loaded_at: string;
  ia_url: string | null;
  format_version: string | null;
  term_count: number;
  relationship_count: number;
  /** `oboContentSha256` of the stored content; null until a load of its version computed it. */
  content_sha256: string | null;
}

const SNAPSHOT_COLUMNS = [
  'id',
  'obo_version',
  'obo_url',
  isoColumn('loaded_at'),
  'ia_url',
  'format_version',
  'term_count',
  'relationship_count',
  'content_sha256',
].join(', ');

export interface SavedSnapshot {
  snapshot: SnapshotView;
  created: boolean;
  skipped_relationships: number;
  alt_ids: number;
}

/** A file whose `data-version` is stored already with other content: nothing was stored. */
export class OntologyVersionConflict extends Error {
  constructor(
    readonly stored: SnapshotView & { content_sha256: string },
    readonly contentSha256: string,
  ) {
    super(`data-version ${stored.obo_version} is stored with other content`);
    this.name = 'OntologyVersionConflict';
  }
}

export interface TermRef {
  id: number;
  go_id: string;
  aspect: 'F' | 'P' | 'C' | null;
  is_obsolete: boolean;
}

export interface SubgraphNode {
  id: number;
  go_id: string;
  name: string | null;
  aspect: string | null;
  is_query: boolean;
}

export interface SubgraphEdge {
  source: number;
  target: number;
  relation_type: string;
}

export class OntologyRepository {
  constructor(private readonly db: DataSource) {}

  findByVersion(oboVersion: string, db: Db = this.db): Promise<SnapshotView | null> {
    return queryOne<SnapshotView>(
      db,
      `SELECT ${SNAPSHOT_COLUMNS} FROM ontology_snapshot WHERE obo_version = $1`,
      [oboVersion],
    );
  }

  /** The snapshot rebuilt as an OBO document, for the evaluator and the holdout split. */
  oboDocument(snapshotId: string): Promise<OboDocument> {
    return loadOboDocument(this.db, snapshotId);
  }

  findById(id: string): Promise<SnapshotView | null> {
    return queryOne<SnapshotView>(
      this.db,
      `SELECT ${SNAPSHOT_COLUMNS} FROM ontology_snapshot WHERE id = $1`,
      [id],
    );
  }

  async getById(id: string): Promise<SnapshotView> {
    const snapshot = await this.findById(id);
    if (snapshot === null) throw notFound('Ontology snapshot');
    return snapshot;
  }

  list(): Promise<SnapshotView[]> {
    return queryRows<SnapshotView>(
      this.db,
      `SELECT ${SNAPSHOT_COLUMNS} FROM ontology_snapshot ORDER BY loaded_at DESC`,
    );
  }

  async setIaUrl(id: string, iaUrl: string | null): Promise<SnapshotView> {
    const row = await queryOne<SnapshotView>(
      this.db,
      `UPDATE ontology_snapshot SET ia_url = $2 WHERE id = $1 RETURNING ${SNAPSHOT_COLUMNS}`,
      [id, iaUrl],
    );
    if (row === null) throw notFound('Ontology snapshot');
    return row;
  }

  /**
   * Stores a parsed release in one transaction: the snapshot, every term, alt ids and relationships.
   * A release is its version and its content: a file whose `data-version` and content hash match a
   * stored snapshot returns that snapshot (`created: false`); one whose version is stored with other
   * content stores nothing and throws `OntologyVersionConflict`. A snapshot stored before hashes
   * existed gets its hash from its stored content here. Relationships whose parent is not a term of
   * the file are skipped and counted.
   */
  async saveSnapshot(document: OboDocument, oboVersion: string, oboUrl: string): Promise<SavedSnapshot> {
    const contentSha256 = oboContentSha256(document);
    return this.db.transaction(async (tx) => {
      // Serialise concurrent loads of the same release.
      await takeTurns(tx, `ontology:${oboVersion}`);
      const existing = await this.findByVersion(oboVersion, tx);
      if (existing !== null) {
        const stored = existing.content_sha256 ?? (await this.backfillContentHash(tx, existing.id));
        if (stored !== contentSha256)
          throw new OntologyVersionConflict({ ...existing, content_sha256: stored }, contentSha256);
        return {
          snapshot: { ...existing, content_sha256: stored },
          created: false,
          skipped_relationships: 0,
          alt_ids: 0,
        };
      }
      const created = await queryOne<{ id: string }>(
        tx,
        `INSERT INTO ontology_snapshot (obo_version, obo_url, format_version, content_sha256) VALUES ($1, $2, $3, $4) RETURNING id`,
        [oboVersion, oboUrl, document.header.formatVersion, contentSha256],
      );
      const snapshotId = created!.id;
      const terms = await bulkInsert<{ id: number; go_id: string }>(tx, {
        table: 'go_term',
        columns: [
          { name: 'ontology_snapshot_id', type: 'uuid' },
          { name: 'go_id', type: 'text' },
          { name: 'name', type: 'text' },
          { name: 'definition', type: 'text' },
          { name: 'aspect', type: 'text' },
          { name: 'is_obsolete', type: 'bool' },
        ],
        rows: document.terms.map((t) => [snapshotId, t.id, t.name, t.definition, t.aspect, t.isObsolete]),
        returning: 'id, go_id',
      });
      const idOf = new Map(terms.map((t) => [t.go_id, t.id]));
      const altRows: unknown[][] = [];
      const seenAlt = new Set<string>();
      for (const term of document.terms) {
        for (const alt of term.altIds) {
          // An alt id that is also a primary id, or listed twice, keeps its first meaning.
          if (idOf.has(alt) || seenAlt.has(alt)) continue;
          seenAlt.add(alt);
          altRows.push([snapshotId, alt, idOf.get(term.id)]);
        }
      }
      await bulkInsert(tx, {
        table: 'go_term_alt_id',
        columns: [
          { name: 'ontology_snapshot_id', type: 'uuid' },
          { name: 'alt_id', type: 'text' },
          { name: 'go_term_id', type: 'int' },
        ],
        rows: altRows,
      });
      const edgeRows: unknown[][] = [];
      let skipped = 0;
      for (const term of document.terms) {
        const child = idOf.get(term.id);
        for (const parent of term.parents) {
          const parentId = idOf.get(parent.id);
          if (child === undefined || parentId === undefined) skipped += 1;
          else edgeRows.push([snapshotId, child, parentId, parent.relation]);
        }
      }
      await bulkInsert(tx, {
        table: 'go_term_relationship',
        columns: [
          { name: 'ontology_snapshot_id', type: 'uuid' },
          { name: 'child_go_term_id', type: 'int' },
          { name: 'parent_go_term_id', type: 'int' },
          { name: 'relation_type', type: 'text' },
        ],
        rows: edgeRows,
      });
      const snapshot = await queryOne<SnapshotView>(
        tx,
        `UPDATE ontology_snapshot SET term_count = $2, relationship_count = $3 WHERE id = $1 RETURNING ${SNAPSHOT_COLUMNS}`,
        [snapshotId, terms.length, edgeRows.length],
      );
      return { snapshot: snapshot!, created: true, skipped_relationships: skipped, alt_ids: altRows.length };
    });
  }

  /** Hashes a snapshot stored before content hashes existed, from its stored content, and keeps it. */
  private async backfillContentHash(tx: Db, snapshotId: string): Promise<string> {
    const digest = oboContentSha256(await loadOboDocument(tx, snapshotId));
    await tx.query(`UPDATE ontology_snapshot SET content_sha256 = $2 WHERE id = $1`, [snapshotId, digest]);
    return digest;
  }

  /** The snapshot's alternate ids (alt_id) of terms that are not obsolete, with the term each names. */
  liveAltIds(snapshotId: string): Promise<{ alt_id: string; go_term_id: number }[]> {
    return queryRows(
      this.db,
      `SELECT a.alt_id, a.go_term_id FROM go_term_alt_id a JOIN go_term t ON t.id = a.go_term_id
        WHERE a.ontology_snapshot_id = $1 AND NOT t.is_obsolete`,
      [snapshotId],
    );
  }

  /** The snapshot's terms that are not obsolete, with their aspect. */
  liveTermAspects(
    snapshotId: string,
  ): Promise<{ id: number; go_id: string; aspect: 'F' | 'P' | 'C' | null }[]> {
    return queryRows(
      this.db,
      `SELECT id, go_id, aspect FROM go_term WHERE ontology_snapshot_id = $1 AND NOT is_obsolete`,
      [snapshotId],
    );
  }

  /** The snapshot's is_a and part_of edges, child to parent (term row ids). */
  isAPartOfEdges(snapshotId: string): Promise<{ child: number; parent: number }[]> {
    return queryRows(
      this.db,
      `SELECT child_go_term_id AS child, parent_go_term_id AS parent FROM go_term_relationship
        WHERE ontology_snapshot_id = $1 AND relation_type IN ('is_a', 'part_of')`,
      [snapshotId],
    );
  }

  /** Every id of a snapshot, alt ids included, mapped to its canonical term. */
  async termIndex(snapshotId: string): Promise<Map<string, TermRef>> {
    const rows = await queryRows<TermRef & { key: string }>(
      this.db,
      `SELECT go_id AS key, id, go_id, aspect, is_obsolete FROM go_term WHERE ontology_snapshot_id = $1
       UNION ALL
       SELECT a.alt_id AS key, t.id, t.go_id, t.aspect, t.is_obsolete
         FROM go_term_alt_id a JOIN go_term t ON t.id = a.go_term_id WHERE a.ontology_snapshot_id = $1`,
      [snapshotId],
    );
    return new Map(rows.map(({ key, ...ref }) => [key, ref]));
  }

  /** Upward breadth-first walk from the seed terms (alt ids resolved), at most `depth` steps. */
  async subgraph(
    snapshotId: string,
    goIds: string[],
    depth: number,
  ): Promise<{ nodes: SubgraphNode[]; edges: SubgraphEdge[] }> {
    const nodes = await queryRows<SubgraphNode>(
      this.db,
      `WITH RECURSIVE seeds AS (
         SELECT id FROM go_term WHERE ontology_snapshot_id = $1 AND go_id = ANY($2::text[])
         UNION SELECT go_term_id FROM go_term_alt_id WHERE ontology_snapshot_id = $1 AND alt_id = ANY($2::text[])),
       walk(id, depth) AS (
         SELECT id, 0 FROM seeds
         UNION
         SELECT r.parent_go_term_id, w.depth + 1 FROM walk w
           JOIN go_term_relationship r ON r.child_go_term_id = w.id WHERE w.depth < $3)
       SELECT t.id, t.go_id, t.name, t.aspect, t.id IN (SELECT id FROM seeds) AS is_query
         FROM go_term t WHERE t.id IN (SELECT id FROM walk) ORDER BY t.go_id`,
      [snapshotId, goIds, depth],
    );
    const ids = nodes.map((n) => n.id);
    const edges = await queryRows<SubgraphEdge>(
      this.db,
      `SELECT child_go_term_id AS source, parent_go_term_id AS target, relation_type FROM go_term_relationship
        WHERE child_go_term_id = ANY($1::int[]) AND parent_go_term_id = ANY($1::int[]) ORDER BY 1, 2, 3`,
      [ids],
    );
    return { nodes, edges };
  }
}
