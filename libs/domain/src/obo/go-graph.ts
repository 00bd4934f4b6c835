import type { GoAspect, OboDocument, OboParent, OboTerm, RelationType } from './obo-types';

/** Edges followed for GO annotation propagation unless a caller asks for others. */
export const DEFAULT_PROPAGATION_RELATIONS: readonly RelationType[] = ['is_a', 'part_of'];

/**
 * Navigation over a parsed GO release. Every lookup accepts alt ids and answers with primary ids.
 *
 * Parent references to ids that are not in the document are dropped (a subset file cut without its
 * ancestor closure would otherwise leak unknown ids into propagated annotations). References written
 * as alt ids are followed to their primary term.
 */
export class GoGraph {
  private readonly termsById = new Map<string, OboTerm>();
  private readonly primaryByAlt = new Map<string, string>();
  private readonly parentEdges = new Map<string, OboParent[]>();
  private readonly childEdges = new Map<string, OboParent[]>();

  constructor(doc: OboDocument) {
    for (const term of doc.terms) {
      // Duplicate stanzas are malformed; the first one is kept so the result does not depend on later noise.
      if (!this.termsById.has(term.id)) this.termsById.set(term.id, term);
    }
    for (const term of this.termsById.values()) {
      for (const alt of term.altIds) {
        // A primary id always wins over the same id listed as someone's alt_id.
        if (!this.termsById.has(alt) && !this.primaryByAlt.has(alt)) this.primaryByAlt.set(alt, term.id);
      }
    }
    for (const term of this.termsById.values()) {
      const parents: OboParent[] = [];
      for (const parent of term.parents) {
        const id = this.resolve(parent.id);
        if (id === null || id === term.id) continue;
        if (parents.some((p) => p.id === id && p.relation === parent.relation)) continue;
        parents.push({ id, relation: parent.relation });
        const children = this.childEdges.get(id);
        const edge = { id: term.id, relation: parent.relation };
        if (children === undefined) this.childEdges.set(id, [edge]);
        else children.push(edge);
      }
      this.parentEdges.set(term.id, parents);
    }
  }

  /** Number of terms, obsolete ones included. */
  get size(): number {
    return this.termsById.size;
  }

  /** The primary id for a primary or alt id; null when the id is unknown. Obsolete terms resolve to themselves. */
  resolve(id: string): string | null {
    if (this.termsById.has(id)) return id;
    return this.primaryByAlt.get(id) ?? null;
  }

  term(id: string): OboTerm | null {
    const primary = this.resolve(id);
    return primary === null ? null : (this.termsById.get(primary) ?? null);
  }

  /** False for unknown ids as well: callers that care about existence use `resolve`. */
  isObsolete(id: string): boolean {
    return this.term(id)?.isObsolete ?? false;
  }

  aspect(id: string): GoAspect | null {
    return this.term(id)?.aspect ?? null;
  }

  /** Direct parents over every kept relation, with primary ids. */
  parents(id: string): OboParent[] {
    const primary = this.resolve(id);
    return primary === null ? [] : [...(this.parentEdges.get(primary) ?? [])];
  }

  /** Transitive parents over the given relations, excluding the term itself, sorted by id. */
  ancestors(id: string, relations: readonly RelationType[] = DEFAULT_PROPAGATION_RELATIONS): string[] {
    return this.walk(id, relations, this.parentEdges);
  }

  /** Transitive children over the given relations, excluding the term itself, sorted by id. */
  descendants(id: string, relations: readonly RelationType[] = DEFAULT_PROPAGATION_RELATIONS): string[] {
    return this.walk(id, relations, this.childEdges);
  }

  private walk(id: string, relations: readonly RelationType[], edges: Map<string, OboParent[]>): string[] {
    const start = this.resolve(id);
    if (start === null) return [];
    const follow = new Set(relations);
    // Seeding `seen` with the start keeps it out of the result even when the file has a cycle.
    const seen = new Set<string>([start]);
    const stack = [start];
    const found: string[] = [];
    for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
      for (const edge of edges.get(current) ?? []) {
        if (!follow.has(edge.relation) || seen.has(edge.id)) continue;
        seen.add(edge.id);
        found.push(edge.id);
        stack.push(edge.id);
      }
    }
    return found.sort();
  }
}
