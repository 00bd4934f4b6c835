import { CafaEvaluationError } from './cafa-errors';
import { forEachLine, splitPythonWhitespace, stripPython } from './reference-text';

/**
 * One OBO record as the reference evaluator sees it. The worker can also build these from the
 * ontology tables (is_a and part_of edges only).
 */
export interface CafaOboRecord {
  id: string;
  namespace: string | null;
  /** Any `is_obsolete:` line, whatever its value. */
  isObsolete: boolean;
  altIds: readonly string[];
  /** `is_a` and `part_of` targets as written; unknown, obsolete or cross-namespace ones are dropped later. */
  parents: readonly string[];
}

interface MutableRecord {
  id: string;
  namespace: string | null;
  isObsolete: boolean;
  altIds: string[];
  parents: string[];
}

/**
 * Reads an OBO text with the reference evaluator's rules, which differ from our `parseObo` on
 * purpose (EVALUATOR.md §2.1): stanza headers are ignored and every `id:` line starts a record (so a
 * Typedef is a record too, dropped later for lack of a namespace), `is_obsolete: false` still counts
 * as obsolete, only `is_a` and `relationship: part_of` make edges, and an `is_a` target is the text
 * before `!`, so a trailing `{...}` qualifier breaks the id exactly as it does in the reference.
 *
 * A repeated id replaces the earlier record but keeps its position, as a Python dict assignment does.
 */
export function parseCafaOboRecords(text: string): CafaOboRecord[] {
  const records = new Map<string, MutableRecord>();
  let current: MutableRecord | null = null;
  forEachLine(text, (line) => {
    // Same as the reference's split(': ') and re-join of the rest, without the arrays.
    const stripped = stripPython(line);
    const cut = stripped.indexOf(': ');
    if (cut < 0) return;
    const key = stripped.slice(0, cut);
    const value = stripped.slice(cut + 2);
    if (key === 'id') {
      current = { id: value, namespace: null, isObsolete: false, altIds: [], parents: [] };
      records.set(value, current);
      return;
    }
    if (current === null) return;
    const record: MutableRecord = current;
    switch (key) {
      case 'namespace':
        record.namespace = value;
        break;
      case 'is_obsolete':
        record.isObsolete = true;
        break;
      case 'alt_id':
        record.altIds.push(value);
        break;
      case 'is_a':
        record.parents.push(stripPython(value.split('!')[0] ?? ''));
        break;
      case 'relationship': {
        const [type, target] = splitPythonWhitespace(value);
        if (type === 'part_of' && target !== undefined) record.parents.push(target);
        break;
      }
      default:
        break;
    }
  });
  return [...records.values()];
}

/** A term id resolved the reference's way: the first namespace (OBO order) holding it as id or alt id. */
export interface CafaTermRef {
  namespace: number;
  terms: readonly number[];
}

/**
 * The live part of an ontology, one graph per namespace, with terms renumbered so that every parent
 * has a smaller index than its children: walking indices downwards visits children before parents,
 * which is the order score propagation needs, and a closure sorts with a plain numeric sort.
 */
export class CafaOntology {
  /** Namespace names in order of first appearance among live terms. */
  readonly namespaces: readonly string[];
  readonly termIds: readonly string[];
  readonly termNamespace: Int32Array;
  readonly parentOffsets: Int32Array;
  readonly parentIndices: Int32Array;
  private readonly canonical: ReadonlyMap<string, number>;
  private readonly altsByNamespace: readonly ReadonlyMap<string, readonly number[]>[];
  private readonly refs = new Map<string, CafaTermRef>();

  constructor(records: Iterable<CafaOboRecord>) {
    // A repeated id keeps its first position and its last content, as a Python dict assignment does.
    const unique = new Map<string, CafaOboRecord>();
    for (const record of records) unique.set(record.id, record);
    const live = [...unique.values()].filter(
      (r) => r.namespace !== null && r.namespace !== 'external' && !r.isObsolete,
    );
    const namespaces: string[] = [];
    const namespaceIndex = new Map<string, number>();
    const draftIndex = new Map<string, number>();
    live.forEach((record, index) => {
      const ns = record.namespace ?? '';
      if (!namespaceIndex.has(ns)) namespaceIndex.set(ns, namespaces.push(ns) - 1);
      draftIndex.set(record.id, index);
    });
    // Edges stay inside the namespace and only reach live terms, looked up by canonical id.
    const draftParents = live.map((record) => {
      const parents: number[] = [];
      for (const target of record.parents) {
        const parent = draftIndex.get(target);
        if (parent === undefined || parents.includes(parent)) continue;
        if (live[parent]?.namespace === record.namespace) parents.push(parent);
      }
      return parents;
    });
    const order = topologicalOrder(draftParents, (i) => live[i]?.id ?? '');
    const finalIndex = new Int32Array(live.length);
    order.forEach((draft, position) => (finalIndex[draft] = position));

    this.namespaces = namespaces;
    this.termIds = order.map((draft) => live[draft]?.id ?? '');
    this.termNamespace = Int32Array.from(
      order,
      (draft) => namespaceIndex.get(live[draft]?.namespace ?? '') ?? 0,
    );
    this.parentOffsets = new Int32Array(live.length + 1);
    const flat: number[] = [];
    order.forEach((draft, position) => {
      for (const parent of draftParents[draft] ?? []) flat.push(finalIndex[parent] ?? 0);
      this.parentOffsets[position + 1] = flat.length;
    });
    this.parentIndices = Int32Array.from(flat);
    this.canonical = new Map(this.termIds.map((id, index) => [id, index]));

    const alts = namespaces.map(() => new Map<string, number[]>());
    for (const record of live) {
      const ns = namespaceIndex.get(record.namespace ?? '') ?? 0;
      const term = this.canonical.get(record.id) ?? 0;
      for (const alt of record.altIds) {
        const terms = alts[ns]?.get(alt);
        if (terms === undefined) alts[ns]?.set(alt, [term]);
        else if (!terms.includes(term)) terms.push(term);
      }
    }
    this.altsByNamespace = alts;
    this.buildRefs();
  }

  get size(): number {
    return this.termIds.length;
  }

  hasParent(term: number): boolean {
    return (this.parentOffsets[term + 1] ?? 0) > (this.parentOffsets[term] ?? 0);
  }

  /** Index of a live term by its canonical id only (IA files are looked up this way). */
  indexOfCanonical(id: string): number | undefined {
    return this.canonical.get(id);
  }

  /** Ground truth, known and prediction terms: id or alt id, first matching namespace wins. */
  resolve(id: string): CafaTermRef | undefined {
    return this.refs.get(id);
  }

  /** TOI terms: id or alt id within one namespace. */
  resolveInNamespace(namespace: number, id: string): readonly number[] {
    const term = this.canonical.get(id);
    if (term !== undefined && this.termNamespace[term] === namespace) return [term];
    return this.altsByNamespace[namespace]?.get(id) ?? [];
  }

  private buildRefs(): void {
    const byNamespace: number[][] = this.namespaces.map(() => []);
    this.termNamespace.forEach((ns, term) => byNamespace[ns]?.push(term));
    byNamespace.forEach((terms, namespace) => {
      for (const term of terms) {
        const id = this.termIds[term] ?? '';
        if (!this.refs.has(id)) this.refs.set(id, { namespace, terms: [term] });
      }
      for (const [alt, altTerms] of this.altsByNamespace[namespace] ?? []) {
        if (!this.refs.has(alt)) this.refs.set(alt, { namespace, terms: altTerms });
      }
    });
  }
}

/** Kahn's algorithm, parents first; a cycle is reported instead of looping or dropping terms. */
function topologicalOrder(parents: readonly (readonly number[])[], name: (i: number) => string): number[] {
  const pending = Int32Array.from(parents, (p) => p.length);
  const children: number[][] = parents.map(() => []);
  parents.forEach((list, child) => list.forEach((parent) => children[parent]?.push(child)));
  const order: number[] = [];
  pending.forEach((count, term) => {
    if (count === 0) order.push(term);
  });
  for (let head = 0; head < order.length; head++) {
    for (const child of children[order[head] ?? 0] ?? []) {
      const left = (pending[child] ?? 0) - 1;
      pending[child] = left;
      if (left === 0) order.push(child);
    }
  }
  if (order.length < parents.length) {
    const stuck = pending.findIndex((count) => count > 0);
    throw new CafaEvaluationError('ontology_cycle', `is_a/part_of cycle through ${name(stuck)}`);
  }
  return order;
}

export function parseCafaOntology(text: string): CafaOntology {
  return new CafaOntology(parseCafaOboRecords(text));
}
