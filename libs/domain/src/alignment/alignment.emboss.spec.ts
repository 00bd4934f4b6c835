import reference from '../../testing/alignment/emboss-reference.json';
import { alignGlobal } from './global-alignment';
import { alignLocal } from './local-alignment';
import type { AlignmentResult } from './alignment-types';

/*
 * Agreement with EMBOSS 6.6.0 needle and water (BLOSUM62, gap open 10, extend 1) on real protein
 * pairs from the tiny and mini data sets, mutants of real proteins and tie-heavy synthetic pairs.
 * The fixture is written by tools/data/emboss-reference.ts; rerun it to extend the pairs.
 */

interface EmbossCounts {
  length: number;
  identical: number;
  similar: number;
  gaps: number;
  score: number;
}

interface ReferencePair {
  kind: string;
  a: string;
  b: string;
  seqA: string;
  seqB: string;
  needle: EmbossCounts;
  water: EmbossCounts;
}

const pairs: ReferencePair[] = reference.pairs;
const named = pairs.map((pair) => ({ name: `${pair.kind} ${pair.a} / ${pair.b}`, pair }));

function expectCounts(result: AlignmentResult, emboss: EmbossCounts): void {
  expect({
    length: result.alignmentLength,
    identical: result.identical,
    similar: result.similar,
    gaps: result.gaps,
  }).toEqual({
    length: emboss.length,
    identical: emboss.identical,
    similar: emboss.similar,
    gaps: emboss.gaps,
  });
  // srspair prints the score with one decimal.
  expect(Math.abs(result.score - emboss.score)).toBeLessThanOrEqual(0.1);
}

describe('agreement with EMBOSS 6.6.0', () => {
  it('has at least 25 real sequence pairs', () => {
    const real = pairs.filter((p) => p.kind === 'related' || p.kind === 'unrelated' || p.kind === 'tiny');
    expect(real.length).toBeGreaterThanOrEqual(25);
  });

  it.each(named)('needle: $name', ({ pair }) => expectCounts(alignGlobal(pair.seqA, pair.seqB), pair.needle));

  it.each(named)('water: $name', ({ pair }) => expectCounts(alignLocal(pair.seqA, pair.seqB), pair.water));
});
