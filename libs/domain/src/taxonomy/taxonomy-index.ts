import { MAX_TAX_ID, TaxonNode } from './nodes-dmp';

/**
 * How taxon b stands to taxon a, a closed set:
 * - 'same': the same tax id;
 * - 'ancestor': b is on a's lineage (b is broader, e.g. a = Homo sapiens, b = Homo);
 * - 'descendant': a is on b's lineage (b is narrower);
 * - 'sibling': distinct taxa with the same parent (two species of one genus, or of one subgenus);
 * - 'related': any other pair of known taxa (they share at least the root).
 */
export const TAXONOMIC_RELATIONS = ['same', 'ancestor', 'descendant', 'sibling', 'related'] as const;
export type TaxonomicRelation = (typeof TAXONOMIC_RELATIONS)[number];

const UNSEEN = -1;
const BROKEN = -2;
const ON_PATH = -3;

/**
 * Lineages of an NCBI taxonomy, indexed by tax id in typed arrays (the full dump has ~2.6 million
 * taxa). A lineage is known only when the parent chain reaches the root (the node that is its own
 * parent); a taxon missing from the dump, a dangling parent or a cycle makes it unknown, and every
 * answer about an unknown lineage is null, never 0, so a missing taxonomy is not mistaken for a
 * close one.
 */
export class TaxonomyIndex {
  private readonly depths: Int32Array;

  private constructor(
    private readonly parents: Int32Array,
    private readonly rankCodes: Uint16Array,
    private readonly rankNames: readonly string[],
  ) {
    this.depths = new Int32Array(parents.length).fill(UNSEEN);
  }

  static fromNodes(nodes: Iterable<TaxonNode>): TaxonomyIndex {
    const list = [...nodes];
    let maxTaxId = 1;
    for (const node of list) {
      for (const id of [node.taxId, node.parentTaxId]) {
        if (!Number.isInteger(id) || id < 1 || id > MAX_TAX_ID)
          throw new RangeError(`tax id ${id} is not an integer from 1 to ${MAX_TAX_ID}`);
      }
      if (node.taxId > maxTaxId) maxTaxId = node.taxId;
    }
    // Parent 0 marks a tax id absent from the dump; real tax ids start at 1.
    const parents = new Int32Array(maxTaxId + 1);
    const rankCodes = new Uint16Array(maxTaxId + 1);
    const rankNames: string[] = [];
    const rankIndex = new Map<string, number>();
    for (const node of list) {
      let code = rankIndex.get(node.rank);
      if (code === undefined) {
        code = rankNames.length;
        rankNames.push(node.rank);
        rankIndex.set(node.rank, code);
      }
      parents[node.taxId] = node.parentTaxId;
      rankCodes[node.taxId] = code;
    }
    return new TaxonomyIndex(parents, rankCodes, rankNames);
  }

  /** Whether the dump lists this tax id (its lineage may still be broken). */
  has(taxId: number): boolean {
    return Number.isInteger(taxId) && taxId > 0 && (this.parents[taxId] ?? 0) !== 0;
  }

  rank(taxId: number): string | null {
    return this.has(taxId) ? (this.rankNames[this.rankCodes[taxId] ?? 0] ?? null) : null;
  }

  /** Edges from the taxon up to the root (0 for the root); null when the lineage is unknown. */
  depth(taxId: number): number | null {
    if (!this.has(taxId)) return null;
    const known = this.depths[taxId] ?? UNSEEN;
    if (known !== UNSEEN) return known === BROKEN ? null : known;
    // Walk up to a taxon of known depth (or the root), then fill the path on the way back.
    const path: number[] = [];
    let current = taxId;
    let base: number;
    for (;;) {
      const state = this.depths[current] ?? UNSEEN;
      if (state >= 0 || state === BROKEN) {
        base = state;
        break;
      }
      if (state === ON_PATH || !this.has(current)) {
        base = BROKEN;
        break;
      }
      const parent = this.parents[current] ?? 0;
      if (parent === current) {
        this.depths[current] = 0;
        base = 0;
        break;
      }
      this.depths[current] = ON_PATH;
      path.push(current);
      current = parent;
    }
    for (let i = path.length - 1; i >= 0; i -= 1) {
      if (base !== BROKEN) base += 1;
      this.depths[path[i] ?? 0] = base;
    }
    const depth = this.depths[taxId] ?? BROKEN;
    return depth >= 0 ? depth : null;
  }

  /** The taxon's lineage from the root down to the taxon itself; null when unknown. */
  lineage(taxId: number): number[] | null {
    const depth = this.depth(taxId);
    if (depth === null) return null;
    const lineage = new Array<number>(depth + 1);
    let current = taxId;
    for (let i = depth; i >= 0; i -= 1) {
      lineage[i] = current;
      current = this.parents[current] ?? 0;
    }
    return lineage;
  }

  /** The deepest taxon on both lineages; null when either lineage is unknown. */
  lowestCommonAncestor(a: number, b: number): number | null {
    return this.meet(a, b)?.lca ?? null;
  }

  /** Edges from a up to the lowest common ancestor plus edges from b up to it; null when unknown. */
  taxonomicDistance(a: number, b: number): number | null {
    const meeting = this.meet(a, b);
    return meeting === null ? null : meeting.depthA + meeting.depthB - 2 * meeting.depthLca;
  }

  /**
   * Size of the shared part of the two lineages: the lowest common ancestor and everything above
   * it, root included (so the same taxon counts its whole lineage); null when unknown.
   */
  commonAncestorCount(a: number, b: number): number | null {
    const meeting = this.meet(a, b);
    return meeting === null ? null : meeting.depthLca + 1;
  }

  /** How b stands to a (see TaxonomicRelation); null when either lineage is unknown. */
  relation(a: number, b: number): TaxonomicRelation | null {
    const meeting = this.meet(a, b);
    if (meeting === null) return null;
    if (a === b) return 'same';
    if (meeting.lca === b) return 'ancestor';
    if (meeting.lca === a) return 'descendant';
    if (meeting.depthA === meeting.depthLca + 1 && meeting.depthB === meeting.depthLca + 1) return 'sibling';
    return 'related';
  }

  private meet(
    a: number,
    b: number,
  ): { lca: number; depthA: number; depthB: number; depthLca: number } | null {
    const depthA = this.depth(a);
    const depthB = this.depth(b);
    if (depthA === null || depthB === null) return null;
    let x = a;
    let y = b;
    for (let d = depthA; d > depthB; d -= 1) x = this.parents[x] ?? 0;
    for (let d = depthB; d > depthA; d -= 1) y = this.parents[y] ?? 0;
    let depthLca = Math.min(depthA, depthB);
    while (x !== y) {
      // Two roots (a dump with a second self-parented node) share nothing.
      if (depthLca === 0) return null;
      x = this.parents[x] ?? 0;
      y = this.parents[y] ?? 0;
      depthLca -= 1;
    }
    return { lca: x, depthA, depthB, depthLca };
  }
}
