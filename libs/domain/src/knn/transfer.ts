import type { GoAspect } from '../obo/obo-types';
import { SelectedNeighbour, standardDeviation } from './neighbours';

/** One annotation a reference protein can donate. */
export interface DonorAnnotation {
  readonly goTermId: number;
  readonly goId: string;
  readonly aspect: GoAspect;
  readonly qualifier: string | null;
  readonly evidenceCode: string;
}

export interface TermInfo {
  readonly goId: string;
  readonly aspect: GoAspect;
}

/** One prediction row: a (query, GO term) pair with its nearest donor and the neighbourhood's votes. */
export interface TransferredTerm {
  readonly goTermId: number;
  readonly goId: string;
  readonly aspect: GoAspect;
  readonly distance: number;
  readonly refIndex: number;
  readonly qualifier: string | null;
  readonly evidenceCode: string;
  readonly kPosition: number;
  readonly voteCount: number;
  readonly neighbourVoteFraction: number;
  readonly neighbourDistanceStd: number;
  readonly refAnnotationDensity: number;
  readonly goTermFrequency: number | null;
  readonly minDistance: number;
  readonly meanDistance: number;
  /** True when the term is only reached through a donor's more specific annotation. */
  readonly viaDescendant: boolean;
}

/**
 * Nearest-neighbour GO transfer for one query over one neighbourhood (one aspect index, or all
 * aspects). Each neighbour votes once for every term it carries (with `ancestorsOf`, also for their
 * ancestors); the row takes its distance, donor, qualifier and evidence from the nearest neighbour
 * carrying the term. Vote fractions are over the neighbours actually kept, so a thresholded
 * neighbourhood is not diluted by missing neighbours.
 */
export function transferTerms(input: {
  neighbours: readonly SelectedNeighbour[];
  annotationsOf: (refIndex: number) => readonly DonorAnnotation[];
  termFrequency?: (goTermId: number) => number | null;
  ancestorsOf?: (goTermId: number) => readonly number[];
  termInfo?: (goTermId: number) => TermInfo | null;
}): TransferredTerm[] {
  const n = input.neighbours.length;
  if (n === 0) return [];
  const distanceStd = standardDeviation(input.neighbours.map((x) => x.distance));
  interface Tally {
    first: SelectedNeighbour;
    annotation: DonorAnnotation;
    viaDescendant: boolean;
    votes: number;
    distanceSum: number;
    density: number;
  }
  const tallies = new Map<number, Tally>();
  for (const neighbour of input.neighbours) {
    const annotations = input.annotationsOf(neighbour.refIndex);
    const direct = new Map<number, DonorAnnotation>();
    for (const a of annotations) if (!direct.has(a.goTermId)) direct.set(a.goTermId, a);
    const carried = new Map<number, { annotation: DonorAnnotation; viaDescendant: boolean }>();
    for (const [id, a] of direct) carried.set(id, { annotation: a, viaDescendant: false });
    if (input.ancestorsOf !== undefined && input.termInfo !== undefined) {
      for (const a of direct.values()) {
        for (const ancestor of input.ancestorsOf(a.goTermId)) {
          if (carried.has(ancestor)) continue;
          const info = input.termInfo(ancestor);
          if (info === null || info.aspect !== a.aspect) continue;
          carried.set(ancestor, {
            annotation: { ...a, goTermId: ancestor, goId: info.goId, qualifier: null },
            viaDescendant: true,
          });
        }
      }
    }
    for (const [id, c] of carried) {
      const tally = tallies.get(id);
      if (tally === undefined) {
        tallies.set(id, {
          first: neighbour,
          annotation: c.annotation,
          viaDescendant: c.viaDescendant,
          votes: 1,
          distanceSum: neighbour.distance,
          density: direct.size,
        });
      } else {
        tally.votes += 1;
        tally.distanceSum += neighbour.distance;
      }
    }
  }
  const rows: TransferredTerm[] = [];
  for (const [goTermId, t] of tallies) {
    rows.push({
      goTermId,
      goId: t.annotation.goId,
      aspect: t.annotation.aspect,
      distance: t.first.distance,
      refIndex: t.first.refIndex,
      qualifier: t.annotation.qualifier,
      evidenceCode: t.annotation.evidenceCode,
      kPosition: t.first.rank,
      voteCount: t.votes,
      neighbourVoteFraction: t.votes / n,
      neighbourDistanceStd: distanceStd,
      refAnnotationDensity: t.density,
      goTermFrequency: input.termFrequency?.(goTermId) ?? null,
      minDistance: t.first.distance,
      meanDistance: t.distanceSum / t.votes,
      viaDescendant: t.viaDescendant,
    });
  }
  rows.sort((a, b) => a.distance - b.distance || a.goId.localeCompare(b.goId));
  return rows;
}
