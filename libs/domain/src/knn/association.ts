import type { GoAspect } from '../obo';
import { BinaryHeap } from './binary-heap';
import type { TermPrior } from './homology-blend';

/**
 * Association from what is already known about a protein (docs/prediction.md, "Association"): the
 * reference proteins whose annotations share the query's known terms, weighted by how specific the
 * shared terms are, vote for the terms of the aspect being predicted. An LK target (nothing known in
 * the aspect) is matched on its terms of the other aspects; a PK target on all of its terms.
 */

export type AspectTerms = Readonly<Record<GoAspect, readonly string[]>>;

export interface AssociationOptions {
  /** Terms carried by more reference proteins than this say too little to match on (and cost most). */
  maxPosting: number;
  /** Neighbours kept: the most similar reference proteins. */
  neighbours: number;
}

export const DEFAULT_ASSOCIATION_OPTIONS: AssociationOptions = { maxPosting: 1000, neighbours: 50 };

const ASPECTS: readonly GoAspect[] = ['F', 'P', 'C'];

/**
 * The reference an association index reads: its proteins by index, their propagated terms (asked
 * once each while the index is built, then only for the neighbours of a query), and the term priors,
 * whose counts say which terms are specific enough to match on before any posting is stored.
 */
export interface AssociationSource {
  readonly size: number;
  accession(index: number): string;
  terms(index: number, aspect: GoAspect): Iterable<string> | undefined;
  readonly priors: Readonly<Record<GoAspect, TermPrior>>;
  /** The protein of an accession, when the source already keeps such a map (else the index builds one). */
  find?(accession: string): number | undefined;
}

/** A source over proteins held as maps of propagated terms (the quality benchmark's windows). */
export function associationSourceOf(
  references: ReadonlyMap<string, AspectTerms>,
  priors: Readonly<Record<GoAspect, TermPrior>>,
): AssociationSource {
  const accessions = [...references.keys()];
  const profiles = [...references.values()];
  return {
    size: accessions.length,
    accession: (index) => accessions[index]!,
    terms: (index, aspect) => profiles[index]?.[aspect],
    priors,
  };
}

/** Reference proteins indexed by their specific terms, for matching a query's known terms. */
export class AssociationIndex {
  /** Per specific term, the proteins carrying it in ascending order (sized from the prior's count). */
  private readonly postings = new Map<string, Int32Array>();
  private readonly weight = new Map<string, number>();
  /** Accession to protein: the source's own map, or one built here. */
  private readonly indexOf: { get(accession: string): number | undefined };
  /** Scratch, per aspect of the matched terms: each reference protein's summed term weights. */
  private readonly similarity: Float64Array[];
  private readonly seen: Uint8Array;
  /** Per aspect: whether each reference protein has terms there (only those can vote). */
  private readonly carries: Uint8Array[];

  /** Accession to protein, when the source keeps no such map: filled while the index is built. */
  private readonly byAccession: Map<string, number> | null;
  /** How far each posting is filled while the index is built. */
  private filled: Map<string, number> | null = new Map();

  /** Builds the index over the whole source at once (`build` does the same, giving way as it goes). */
  constructor(
    private readonly source: AssociationSource,
    private readonly options: AssociationOptions = DEFAULT_ASSOCIATION_OPTIONS,
    deferred = false,
  ) {
    this.carries = ASPECTS.map(() => new Uint8Array(source.size));
    this.byAccession = source.find === undefined ? new Map<string, number>() : null;
    this.indexOf = this.byAccession ?? { get: (accession) => source.find!(accession) };
    this.similarity = ASPECTS.map(() => new Float64Array(source.size));
    this.seen = new Uint8Array(source.size);
    if (deferred) return;
    for (let index = 0; index < source.size; index++) this.add(index);
    this.finish();
  }

  /**
   * The same index, built `step` proteins at a time with `pause()` awaited in between, so a process
   * that builds one over half a million proteins keeps answering (its broker heartbeats, its leases)
   * while it does.
   */
  static async build(
    source: AssociationSource,
    options: AssociationOptions,
    pause: () => Promise<void>,
    step = 2_000,
  ): Promise<AssociationIndex> {
    const index = new AssociationIndex(source, options, true);
    for (let start = 0; start < source.size; start += step) {
      const end = Math.min(source.size, start + step);
      for (let protein = start; protein < end; protein++) index.add(protein);
      await pause();
    }
    index.finish();
    return index;
  }

  /** Indexes one protein's terms; proteins are added in ascending order, so postings stay sorted. */
  private add(index: number): void {
    const filled = this.filled!;
    this.byAccession?.set(this.source.accession(index), index);
    ASPECTS.forEach((aspect, slot) => {
      const prior = this.source.priors[aspect];
      for (const term of this.source.terms(index, aspect) ?? []) {
        this.carries[slot]![index] = 1;
        // A term's weight is its information content among the reference proteins of its aspect:
        // rare terms match proteins of the same function, common ones anything (and cost most).
        const count = postingCount(prior, term, this.options.maxPosting);
        if (count === 0) continue;
        // A posting is allocated at its term's count in the prior (the proteins carrying it), and
        // grows only if the source carries the term more often than that.
        let posting = this.postings.get(term);
        if (posting === undefined) {
          this.postings.set(term, (posting = new Int32Array(count)));
          this.weight.set(term, Math.log2(prior.proteins / count));
        }
        const at = filled.get(term) ?? 0;
        if (at === posting.length) {
          const grown = new Int32Array(Math.max(1, posting.length * 2));
          grown.set(posting);
          this.postings.set(term, (posting = grown));
        }
        posting[at] = index;
        filled.set(term, at + 1);
      }
    });
  }

  /** Trims the postings that grew past what they hold. */
  private finish(): void {
    for (const [term, at] of this.filled!) {
      const posting = this.postings.get(term)!;
      if (at < posting.length) this.postings.set(term, posting.slice(0, at));
    }
    this.filled = null;
  }

  get size(): number {
    return this.source.size;
  }

  /** The reference protein of this accession, if any. */
  find(accession: string): number | undefined {
    return this.indexOf.get(accession);
  }

  /**
   * Per aspect, per term of that aspect, the similarity-weighted share of the query's nearest
   * reference proteins (by shared known terms) that carry it, in [0, 1]; an aspect is absent when
   * nothing known can be matched for it. `known`: the query's propagated terms; `self`: its own
   * accession, never its own neighbour. One pass over the postings serves the three aspects.
   */
  scores(known: AspectTerms, self: string | null): Partial<Record<GoAspect, Map<string, number>>> {
    const touched: number[] = [];
    const selfIndex = self === null ? -1 : (this.indexOf.get(self) ?? -1);
    const norm: Record<GoAspect, number> = { F: 0, P: 0, C: 0 };
    ASPECTS.forEach((a, slot) => {
      const similarity = this.similarity[slot]!;
      for (const term of known[a]) {
        const w = this.weight.get(term);
        if (w === undefined || w <= 0) continue;
        norm[a] += w;
        for (const index of this.postings.get(term)!) {
          if (this.seen[index] === 0) {
            this.seen[index] = 1;
            touched.push(index);
          }
          similarity[index]! += w;
        }
      }
    });
    // A query's similarity to a protein is the same for the three aspects: an aspect it knows nothing
    // of adds nothing to it (LK), and its weight is in no norm. So one pass over the touched proteins
    // offers each to the neighbours of every aspect the protein carries terms in.
    const total = norm.F + norm.P + norm.C;
    const nearest = ASPECTS.map(() => new Nearest(this.options.neighbours));
    if (total > 0) {
      const [s0, s1, s2] = this.similarity as [Float64Array, Float64Array, Float64Array];
      const [c0, c1, c2] = this.carries as [Uint8Array, Uint8Array, Uint8Array];
      for (const index of touched) {
        if (index === selfIndex) continue;
        const sim = s0[index]! + s1[index]! + s2[index]!;
        if (!(sim > 0)) continue;
        const share = sim / total;
        if (c0[index] !== 0) nearest[0]!.offer(index, share);
        if (c1[index] !== 0) nearest[1]!.offer(index, share);
        if (c2[index] !== 0) nearest[2]!.offer(index, share);
      }
    }
    const out: Partial<Record<GoAspect, Map<string, number>>> = {};
    ASPECTS.forEach((aspect, slot) => {
      const neighbours = nearest[slot]!;
      if (neighbours.size === 0) return;
      const scores = new Map<string, number>();
      let sum = 0;
      for (const { index, sim } of neighbours.items()) {
        sum += sim;
        for (const term of this.source.terms(index, aspect) ?? [])
          scores.set(term, (scores.get(term) ?? 0) + sim);
      }
      for (const [term, value] of scores) scores.set(term, value / sum);
      out[aspect] = scores;
    });
    for (const index of touched) {
      this.seen[index] = 0;
      for (const similarity of this.similarity) similarity[index] = 0;
    }
    return out;
  }
}

/** Proteins carrying a term by the prior's count; 0 for a term too common (or unknown) to match on. */
function postingCount(prior: TermPrior, term: string, maxPosting: number): number {
  const count = Math.round((prior.frequency.get(term) ?? 0) * prior.proteins);
  return count > maxPosting ? 0 : count;
}

/**
 * The memory an `AssociationIndex` over a source of `proteins` proteins with these priors takes,
 * worked out from the priors alone before it is built: per protein its scratch and flag arrays (3
 * doubles and 4 bytes), per posting 4 bytes (exact when the priors count what the source carries, as
 * a pool's do), per indexed term its entries in two maps and its typed array (`ASSOCIATION_BYTES`).
 * Without `find` the index also keeps an accession map. The typed arrays live beside V8's heap, not
 * in it, so held against the heap's free space the figure errs on the safe side.
 */
export function associationIndexBytes(
  proteins: number,
  priors: Readonly<Record<GoAspect, TermPrior>>,
  options: AssociationOptions,
  ownAccessionMap = false,
): { bytes: number; postings: number; terms: number } {
  let postings = 0;
  let terms = 0;
  for (const aspect of ASPECTS) {
    const prior = priors[aspect];
    for (const [term] of prior.ranked) {
      const count = postingCount(prior, term, options.maxPosting);
      if (count === 0) continue;
      postings += count;
      terms += 1;
    }
  }
  const perProtein = ASSOCIATION_BYTES.perProtein + (ownAccessionMap ? ASSOCIATION_BYTES.perAccession : 0);
  return {
    bytes:
      proteins * perProtein + postings * ASSOCIATION_BYTES.perPosting + terms * ASSOCIATION_BYTES.perTerm,
    postings,
    terms,
  };
}

/**
 * The parts of `associationIndexBytes`: three Float64 and four Uint8 slots a protein, an Int32 a
 * posting, and a term's two map entries, its key and its typed array's headers (generous: V8 keeps
 * an ArrayBuffer and its view apart); an accession map entry with its string when the index keeps one.
 */
export const ASSOCIATION_BYTES = { perProtein: 28, perPosting: 4, perTerm: 400, perAccession: 120 } as const;

/** The `capacity` most similar proteins offered (ties: the lower index), the least of them on top. */
class Nearest {
  private readonly heap = new BinaryHeap<{ index: number; sim: number }>(worse);

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.heap.size;
  }

  offer(index: number, sim: number): void {
    const heap = this.heap;
    if (heap.size === this.capacity && sim < heap.peek().sim) return;
    if (heap.size < this.capacity) heap.push({ index, sim });
    else if (worse(heap.peek(), { index, sim })) heap.replaceTop({ index, sim });
  }

  /** Best first. */
  items(): { index: number; sim: number }[] {
    return this.heap.toArray().sort((x, y) => y.sim - x.sim || x.index - y.index);
  }
}

/** `a` ranks below `b`: less similar, or as similar with a higher index. */
function worse(a: { index: number; sim: number }, b: { index: number; sim: number }): boolean {
  return a.sim < b.sim || (a.sim === b.sim && a.index > b.index);
}

/**
 * The prior a query's known terms inform: `(1 - weight) * frequency + weight * association` per term,
 * ranked again. `weight` 0 (or no association) gives the prior as it is. Lazy: a term's value is
 * worked out when asked, and the ranking merges the scaled prior (already ranked) with the few
 * associated terms, as far as it is read.
 */
export function informedPrior(
  prior: TermPrior,
  association: ReadonlyMap<string, number>,
  weight: number,
): TermPrior {
  if (weight <= 0 || association.size === 0) return prior;
  const value = (term: string): number =>
    (1 - weight) * (prior.frequency.get(term) ?? 0) + weight * (association.get(term) ?? 0);
  const associated = [...association.keys()].map((term) => [term, value(term)] as const);
  function* ranked(): Generator<readonly [string, number]> {
    // Read as far as the blend needs, usually a few hundred of thousands of associated terms: a heap
    // gives them in the order a full sort would, paying only for those read.
    const heap = new BinaryHeap(ranksFirst, associated);
    for (const [term, p] of prior.ranked) {
      if (association.has(term)) continue;
      const scaled = (1 - weight) * p;
      while (heap.size > 0 && before(heap.peek(), term, scaled)) yield heap.pop();
      yield [term, scaled];
    }
    while (heap.size > 0) yield heap.pop();
  }
  return {
    frequency: {
      get: (term) =>
        association.has(term) || prior.frequency.get(term) !== undefined ? value(term) : undefined,
    },
    ranked: { [Symbol.iterator]: ranked },
    proteins: prior.proteins,
  };
}

function before(entry: readonly [string, number], term: string, score: number): boolean {
  return entry[1] > score || (entry[1] === score && entry[0] < term);
}

/** Entries best first: higher value, then lower term. */
function ranksFirst(a: readonly [string, number], b: readonly [string, number]): boolean {
  return a[1] > b[1] || (a[1] === b[1] && a[0] < b[0]);
}
