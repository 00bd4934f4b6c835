import type { GoAspect } from '../obo';
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
  private readonly postings = new Map<string, number[]>();
  private readonly weight = new Map<string, number>();
  private readonly indexOf = new Map<string, number>();
  /** Scratch, per aspect of the matched terms: each reference protein's summed term weights. */
  private readonly similarity: Float64Array[];
  private readonly seen: Uint8Array;
  /** Per aspect: whether each reference protein has terms there (only those can vote). */
  private readonly carries: Uint8Array[];

  constructor(
    private readonly source: AssociationSource,
    private readonly options: AssociationOptions = DEFAULT_ASSOCIATION_OPTIONS,
  ) {
    this.carries = ASPECTS.map(() => new Uint8Array(source.size));
    for (let index = 0; index < source.size; index++) {
      this.indexOf.set(source.accession(index), index);
      ASPECTS.forEach((aspect, slot) => {
        const prior = source.priors[aspect];
        for (const term of source.terms(index, aspect) ?? []) {
          this.carries[slot]![index] = 1;
          // A term's weight is its information content among the reference proteins of its aspect:
          // rare terms match proteins of the same function, common ones anything (and cost most).
          const count = Math.round((prior.frequency.get(term) ?? 0) * prior.proteins);
          if (count === 0 || count > options.maxPosting) continue;
          const posting = this.postings.get(term);
          if (posting === undefined) {
            this.postings.set(term, [index]);
            this.weight.set(term, Math.log2(prior.proteins / count));
          } else posting.push(index);
        }
      });
    }
    this.similarity = ASPECTS.map(() => new Float64Array(source.size));
    this.seen = new Uint8Array(source.size);
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
    const out: Partial<Record<GoAspect, Map<string, number>>> = {};
    for (const aspect of ASPECTS) {
      // PK: matched on everything known; LK: on the other aspects.
      const on = known[aspect].length > 0 ? ASPECTS : ASPECTS.filter((a) => a !== aspect);
      const total = on.reduce((sum, a) => sum + norm[a], 0);
      if (total <= 0) continue;
      const nearest = new Nearest(this.options.neighbours);
      const carries = this.carries[ASPECTS.indexOf(aspect)]!;
      const [s0, s1, s2] = ASPECTS.map((a, slot) => (on.includes(a) ? this.similarity[slot]! : null));
      for (const index of touched) {
        if (index === selfIndex || carries[index] === 0) continue;
        const sim = (s0?.[index] ?? 0) + (s1?.[index] ?? 0) + (s2?.[index] ?? 0);
        if (sim > 0) nearest.offer(index, sim / total);
      }
      if (nearest.size === 0) continue;
      const scores = new Map<string, number>();
      let sum = 0;
      for (const { index, sim } of nearest.items()) {
        sum += sim;
        for (const term of this.source.terms(index, aspect) ?? [])
          scores.set(term, (scores.get(term) ?? 0) + sim);
      }
      for (const [term, value] of scores) scores.set(term, value / sum);
      out[aspect] = scores;
    }
    for (const index of touched) {
      this.seen[index] = 0;
      for (const similarity of this.similarity) similarity[index] = 0;
    }
    return out;
  }
}

/** The `capacity` most similar proteins offered (ties: the lower index), kept in a min-heap. */
class Nearest {
  private readonly heap: { index: number; sim: number }[] = [];

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.heap.length;
  }

  offer(index: number, sim: number): void {
    const heap = this.heap;
    if (heap.length === this.capacity && sim < heap[0]!.sim) return;
    if (heap.length < this.capacity) {
      heap.push({ index, sim });
      this.up(heap.length - 1);
    } else if (worse(heap[0]!, { index, sim })) {
      heap[0] = { index, sim };
      this.down(0);
    }
  }

  /** Best first. */
  items(): { index: number; sim: number }[] {
    return [...this.heap].sort((x, y) => y.sim - x.sim || x.index - y.index);
  }

  private up(i: number): void {
    const heap = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[parent]!)) return;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && worse(heap[left]!, heap[least]!)) least = left;
      if (right < heap.length && worse(heap[right]!, heap[least]!)) least = right;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least]!, heap[i]!];
      i = least;
    }
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
  const associated = [...association.keys()]
    .map((term) => [term, value(term)] as const)
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
  function* ranked(): Generator<readonly [string, number]> {
    let next = 0;
    for (const [term, p] of prior.ranked) {
      if (association.has(term)) continue;
      const scaled = (1 - weight) * p;
      while (next < associated.length && before(associated[next]!, term, scaled)) yield associated[next++]!;
      yield [term, scaled];
    }
    while (next < associated.length) yield associated[next++]!;
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
