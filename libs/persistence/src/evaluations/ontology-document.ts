import type { GoAspect, OboDocument, OboTerm, RelationType } from '@svc/domain';
import { Db, queryRows } from '../sql';

const NAMESPACE: Record<GoAspect, string> = {
  F: 'molecular_function',
  P: 'biological_process',
  C: 'cellular_component',
};

/**
 * A stored ontology snapshot rebuilt as an OBO document (terms in load order, alt ids, every kept
 * relation), so evaluations run on exactly the release the annotations were resolved against.
 */
export async function loadOboDocument(db: Db, snapshotId: string): Promise<OboDocument> {
  const terms = await queryRows<{
    id: number;
    go_id: string;
    name: string | null;
    definition: string | null;
    aspect: GoAspect | null;
    is_obsolete: boolean;
  }>(
    db,
    `SELECT id, go_id, name, definition, aspect, is_obsolete FROM go_term WHERE ontology_snapshot_id = $1 ORDER BY id`,
    [snapshotId],
  );
  const alts = await queryRows<{ go_term_id: number; alt_id: string }>(
    db,
    `SELECT go_term_id, alt_id FROM go_term_alt_id WHERE ontology_snapshot_id = $1`,
    [snapshotId],
  );
  const edges = await queryRows<{ child: number; parent: string; relation_type: RelationType }>(
    db,
    `SELECT r.child_go_term_id AS child, p.go_id AS parent, r.relation_type FROM go_term_relationship r
       JOIN go_term p ON p.id = r.parent_go_term_id WHERE r.ontology_snapshot_id = $1 ORDER BY r.id`,
    [snapshotId],
  );
  const byId = new Map<number, OboTerm>();
  const out: OboTerm[] = terms.map((t) => {
    const term: OboTerm = {
      id: t.go_id,
      name: t.name,
      namespace: t.aspect === null ? null : NAMESPACE[t.aspect],
      aspect: t.aspect,
      definition: t.definition,
      isObsolete: t.is_obsolete,
      altIds: [],
      parents: [],
    };
    byId.set(t.id, term);
    return term;
  });
  for (const a of alts) byId.get(a.go_term_id)?.altIds.push(a.alt_id);
  for (const e of edges) byId.get(e.child)?.parents.push({ id: e.parent, relation: e.relation_type });
  return {
    header: { formatVersion: null, dataVersion: null, ontology: 'go', date: null },
    terms: out,
    typedefs: [],
  };
}
