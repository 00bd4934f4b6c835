import { calibrate, fitSpecificityCalibration, specificityBand } from './calibration';
import {
  type AspectBlend,
  blendTerms,
  checkBlendModel,
  type HomologyHit,
  termPrior,
  type TermPrior,
} from './homology-blend';

// A hand-made ontology of one aspect: GO:A is the parent of GO:B, GO:B of GO:C; GO:X stands apart.
const ANCESTORS: Record<string, string[]> = {
  'GO:A': [],
  'GO:B': ['GO:A'],
  'GO:C': ['GO:B', 'GO:A'],
  'GO:X': [],
};
const ancestorsOf = (goId: string): string[] => ANCESTORS[goId] ?? [];

// Sixteen reference proteins: GO:A on all (IC 0), GO:B on four (IC 2), GO:C and GO:X on one (IC 4).
const REFERENCES: Record<string, string[]> = {
  r1: ['GO:A', 'GO:B', 'GO:C'],
  r2: ['GO:A', 'GO:B'],
  r3: ['GO:A', 'GO:B'],
  r4: ['GO:A', 'GO:B'],
  r5: ['GO:A', 'GO:X'],
};
for (let i = 6; i <= 16; i++) REFERENCES[`r${i}`] = ['GO:A'];
const prior = termPrior(Object.values(REFERENCES));

const BOUNDS = [1, 3];
// The maps cross: a generic term (band 0) is confirmed less often than a specific one at the same blend.
const params: AspectBlend = {
  base: 0.2,
  slope: 0.8,
  vote_share: 1,
  calibration_by_ic: {
    bounds: BOUNDS,
    maps: [
      { raw: [0, 1], calibrated: [0, 0.5] },
      { raw: [0, 1], calibrated: [0, 0.8] },
      { raw: [0, 1], calibrated: [0, 1] },
    ],
  },
};
const hit = (reference: string, identity: number, bitscore: number): HomologyHit => ({
  reference,
  identity,
  bitscore,
  evalue: 1e-30,
});
const blend = (hits: HomologyHit[], options: { minScore?: number; prior?: TermPrior } = {}) =>
  new Map(
    blendTerms({
      hits,
      termsOf: (r) => REFERENCES[r],
      prior: options.prior ?? prior,
      specificity: prior,
      params,
      minScore: options.minScore ?? 0,
      ancestorsOf,
    }).map((t) => [t.goId, t]),
  );

describe('term-aware calibration', () => {
  it('places a term in the band of its information content, -log2 of its prior frequency', () => {
    expect(specificityBand(BOUNDS, prior.frequency.get('GO:A'))).toBe(0); // IC 0
    expect(specificityBand(BOUNDS, prior.frequency.get('GO:B'))).toBe(1); // IC 2
    expect(specificityBand(BOUNDS, prior.frequency.get('GO:C'))).toBe(2); // IC 4
    expect(specificityBand(BOUNDS, undefined)).toBe(2); // unknown to the prior: the most specific
    expect(specificityBand(BOUNDS, 0.5)).toBe(1); // IC 1 is the first bound: the band above it
  });

  it('scores each term by its band’s map', () => {
    // A close homolog carrying GO:X (band 2): the map of band 2 is the identity.
    const scores = blend([hit('r5', 0.9, 500)]);
    const w = 0.2 + 0.8 * 0.9;
    const raw = (p: number): number => w * 1 + (1 - w) * p;
    expect(scores.get('GO:X')!.score).toBeCloseTo(raw(1 / 16), 12);
    // GO:A, carried by the same donor, is in band 0, whose map halves the blend; its child GO:X is not
    // below it in the ontology, so nothing lifts it.
    expect(scores.get('GO:A')!.score).toBeCloseTo(raw(1) * 0.5, 12);
    expect(scores.get('GO:A')!.liftedFrom).toBeUndefined();
    // A prior-only term is scored by its band's map too.
    expect(scores.get('GO:B')!.score).toBeCloseTo((1 - w) * (4 / 16) * 0.8, 12);
  });

  it('lifts every ancestor to its descendant’s score where the maps cross, and names the descendant', () => {
    const scores = blend([hit('r1', 0.9, 500)]);
    const c = scores.get('GO:C')!;
    const b = scores.get('GO:B')!;
    const a = scores.get('GO:A')!;
    // On their own, GO:B (x0.8) and GO:A (x0.5) would score below GO:C (x1).
    expect(c.liftedFrom).toBeUndefined();
    expect(b.score).toBe(c.score);
    expect(a.score).toBe(c.score);
    expect(b.liftedFrom).toBe('GO:C');
    expect(a.liftedFrom).toBe('GO:C');
    // A lifted term keeps its own evidence.
    expect(a.donor?.reference).toBe('r1');
    expect(a.prior).toBe(1);
    for (const [goId, term] of scores)
      for (const ancestor of ancestorsOf(goId))
        expect(scores.get(ancestor)!.score).toBeGreaterThanOrEqual(term.score);
  });

  it('emits an ancestor below the cut on its own at its descendant’s score', () => {
    // No homolog: the prior alone. GO:A scores 1 * 0.5 on its own; with a cut at 0.6 only a lift keeps it.
    const boosted: TermPrior = {
      ranked: [
        ['GO:A', 1],
        ['GO:X', 0.7],
      ],
      frequency: new Map([
        ['GO:A', 1],
        ['GO:X', 0.7],
      ]),
      proteins: 16,
    };
    // GO:X's band comes from the plain prior (IC 4: the identity), not from the informed 0.7 (band 0).
    const scores = blend([], { minScore: 0.6, prior: boosted });
    expect(scores.get('GO:X')!.score).toBeCloseTo(0.7, 12);
    expect(scores.has('GO:A')).toBe(false); // GO:X is no descendant of GO:A
    const withChild = blend([], {
      minScore: 0.6,
      prior: {
        ...boosted,
        ranked: [
          ['GO:A', 1],
          ['GO:C', 0.7],
        ],
        frequency: new Map([
          ['GO:A', 1],
          ['GO:C', 0.7],
        ]),
      },
    });
    expect(withChild.get('GO:C')!.score).toBeCloseTo(0.7, 12);
    expect(withChild.get('GO:A')!.score).toBeCloseTo(0.7, 12);
    expect(withChild.get('GO:A')!.liftedFrom).toBe('GO:C');
    expect(withChild.get('GO:B')!.liftedFrom).toBe('GO:C');
  });

  it('refuses to run without the ontology it needs to keep parents at or above their children', () => {
    expect(() => blendTerms({ hits: [], termsOf: () => undefined, prior, params, minScore: 0.01 })).toThrow(
      /ancestorsOf/,
    );
  });

  it('fits one map per band, a band with too few samples taking the map before it', () => {
    const samples: { score: number; label: boolean; frequency: number }[] = [];
    // Band 0 (frequency 1): confirmed at half the score; band 1 (frequency 0.25): at the score.
    for (let i = 0; i < 400; i++) {
      const score = (i % 100) / 100 + 0.005;
      samples.push({ score, label: (i * 7919) % 100 < score * 50, frequency: 1 });
      samples.push({ score, label: (i * 7919) % 100 < score * 100, frequency: 0.25 });
    }
    samples.push({ score: 0.5, label: true, frequency: 1 / 16 }); // band 2: one sample only
    const fitted = fitSpecificityCalibration(samples, BOUNDS, { bins: 10, minSamples: 50 });
    expect(fitted.bounds).toEqual(BOUNDS);
    expect(fitted.maps).toHaveLength(3);
    expect(calibrate(fitted.maps[0], 0.8)).toBeCloseTo(0.4, 1);
    expect(calibrate(fitted.maps[1], 0.8)).toBeCloseTo(0.8, 1);
    expect(fitted.maps[2]).toBe(fitted.maps[1]);
  });

  it('is checked when a model is read', () => {
    const model = (aspect: AspectBlend) => ({
      version: 'v',
      min_score: 0.01,
      donor_evidence: 'experimental',
      aspects: { F: aspect, P: params, C: params },
    });
    expect(checkBlendModel(model(params)).aspects.F.calibration_by_ic?.maps).toHaveLength(3);
    const byIc = params.calibration_by_ic!;
    expect(() =>
      checkBlendModel(model({ ...params, calibration_by_ic: { ...byIc, bounds: [3, 1] } })),
    ).toThrow(/bounds/);
    expect(() =>
      checkBlendModel(model({ ...params, calibration_by_ic: { ...byIc, maps: byIc.maps.slice(1) } })),
    ).toThrow(/one map per band/);
    expect(() =>
      checkBlendModel(
        model({
          ...params,
          calibration_by_ic: {
            ...byIc,
            maps: [byIc.maps[0]!, { raw: [0, 1], calibrated: [0.9, 0.1] }, byIc.maps[2]!],
          },
        }),
      ),
    ).toThrow(/maps\[1\]/);
  });
});
