import { calibrate, fitCalibration } from './calibration';
import {
  type AspectBlend,
  blendTerms,
  checkBlendModel,
  homologyWeight,
  type HomologyHit,
  termPrior,
} from './homology-blend';

// Propagated reference terms of one aspect: C is a child of B, B of A.
const REFERENCES: Record<string, string[]> = {
  r1: ['GO:A', 'GO:B', 'GO:C'],
  r2: ['GO:A', 'GO:B'],
  r3: ['GO:A'],
  r4: ['GO:A', 'GO:X'],
};
const prior = termPrior(Object.values(REFERENCES));
const params: AspectBlend = { base: 0.2, slope: 0.8, vote_share: 1 };
const hit = (reference: string, identity: number, bitscore: number): HomologyHit => ({
  reference,
  identity,
  bitscore,
  evalue: 1e-20,
});
const blend = (hits: HomologyHit[], minScore = 0) =>
  new Map(
    blendTerms({ hits, termsOf: (r) => REFERENCES[r], prior, params, minScore }).map((t) => [t.goId, t]),
  );

describe('termPrior', () => {
  it('is each term’s share of the annotated reference proteins, most frequent first', () => {
    expect(prior.proteins).toBe(4);
    expect(prior.ranked).toEqual([
      ['GO:A', 1],
      ['GO:B', 0.5],
      ['GO:C', 0.25],
      ['GO:X', 0.25],
    ]);
  });
});

describe('blendTerms', () => {
  it('falls back to the prior when a query has no hit', () => {
    const scores = blend([]);
    expect([...scores.values()].map((t) => [t.goId, t.score])).toEqual([
      ['GO:A', 1],
      ['GO:B', 0.5],
      ['GO:C', 0.25],
      ['GO:X', 0.25],
    ]);
    expect(scores.get('GO:B')!.donor).toBeNull();
  });

  it('puts a close homolog’s terms above the prior and names the donor', () => {
    const scores = blend([hit('r4', 0.95, 400)]);
    const w = homologyWeight(params, 0.95);
    expect(w).toBe(0.96);
    expect(scores.get('GO:X')!.score).toBeCloseTo(w * 1 + (1 - w) * 0.25, 12);
    expect(scores.get('GO:B')!.score).toBeCloseTo((1 - w) * 0.5, 12);
    expect(scores.get('GO:X')!.score).toBeGreaterThan(scores.get('GO:B')!.score);
    expect(scores.get('GO:X')!.donor?.reference).toBe('r4');
    expect(scores.get('GO:X')!.votes).toBe(1);
  });

  it('weighs votes by bitscore and keeps every parent at or above its child', () => {
    const scores = blend([hit('r1', 0.4, 100), hit('r2', 0.5, 300), hit('r3', 0.3, 100)]);
    expect(scores.get('GO:B')!.voteShare).toBeCloseTo(400 / 500, 12);
    expect(scores.get('GO:C')!.voteShare).toBeCloseTo(100 / 500, 12);
    expect(scores.get('GO:B')!.identity).toBe(0.5);
    expect(scores.get('GO:A')!.score).toBeGreaterThanOrEqual(scores.get('GO:B')!.score);
    expect(scores.get('GO:B')!.score).toBeGreaterThanOrEqual(scores.get('GO:C')!.score);
    for (const term of scores.values()) {
      expect(term.score).toBeGreaterThanOrEqual(0);
      expect(term.score).toBeLessThanOrEqual(1);
    }
  });

  it('ignores hits on proteins without terms in the aspect and drops terms under the minimum score', () => {
    const scores = blend([hit('unannotated', 0.99, 900), hit('r4', 0.95, 400)], 0.05);
    expect(scores.get('GO:X')!.voteShare).toBe(1);
    expect(scores.has('GO:C')).toBe(false); // (1 - 0.96) * 0.25 = 0.01
    expect(scores.has('GO:A')).toBe(true);
  });
});

describe('checkBlendModel', () => {
  const good = {
    version: 'v',
    min_score: 0.01,
    donor_evidence: 'experimental',
    aspects: { F: params, P: params, C: params },
  };
  it('accepts a complete model and refuses a broken one', () => {
    expect(checkBlendModel(good).version).toBe('v');
    expect(checkBlendModel({ ...good, donor_evidence: 'all' }).donor_evidence).toBe('all');
    // The donor policy its calibration was fitted for is part of the model: a score means nothing without it.
    expect(() => checkBlendModel({ ...good, donor_evidence: undefined })).toThrow(/donor_evidence/);
    expect(() => checkBlendModel({ ...good, donor_evidence: 'IEA' })).toThrow(/donor_evidence/);
    expect(() => checkBlendModel({ ...good, aspects: { F: params, P: params } })).toThrow(/aspect C/);
    expect(() => checkBlendModel({ ...good, min_score: 2 })).toThrow(/min_score/);
    expect(() =>
      checkBlendModel({ ...good, aspects: { ...good.aspects, F: { ...params, vote_share: Number.NaN } } }),
    ).toThrow(/F.vote_share/);
  });
});

describe('calibration', () => {
  it('interpolates between knots and holds the end values outside them', () => {
    const c = { raw: [0, 0.5, 1], calibrated: [0, 0.2, 0.6] };
    expect(calibrate(c, 0.25)).toBeCloseTo(0.1, 12);
    expect(calibrate(c, 0.75)).toBeCloseTo(0.4, 12);
    expect(calibrate(c, 1)).toBe(0.6);
    expect(calibrate(undefined, 0.3)).toBe(0.3);
  });

  it('fits a non-decreasing map that pools bins whose hit rate falls', () => {
    // Bins of 10: hit rates 0.1, 0.5, 0.3 (a violation, pooled with the previous), 0.9.
    const samples = [0.1, 0.5, 0.3, 0.9].flatMap((rate, bin) =>
      Array.from({ length: 10 }, (_, i) => ({ score: bin * 0.25 + i * 0.01, label: i < rate * 10 })),
    );
    const c = fitCalibration(samples, 4);
    expect(c.raw[0]).toBe(0);
    expect(c.raw[c.raw.length - 1]).toBe(1);
    for (let i = 1; i < c.raw.length; i++) {
      expect(c.raw[i]!).toBeGreaterThan(c.raw[i - 1]!);
      expect(c.calibrated[i]!).toBeGreaterThanOrEqual(c.calibrated[i - 1]!);
    }
    // The last segment (0.42, 0.4) -> (0.795, 0.9) continues to a raw 1, capped at 1.
    expect(c.calibrated).toEqual([0, 0.1, 0.4, 0.9, 1]);
    expect(calibrate(c, 0.045)).toBeCloseTo(0.1, 12); // the first bin's mean score
  });

  it('leaves well calibrated scores close to themselves', () => {
    // Score s is right for round(100 s) of 100 samples.
    const samples = Array.from({ length: 10 }, (_, b) => (b + 0.5) / 10).flatMap((s) =>
      Array.from({ length: 100 }, (_, i) => ({ score: s, label: i < Math.round(s * 100) })),
    );
    const c = fitCalibration(samples, 10);
    for (const s of [0.15, 0.45, 0.85, 0.98]) expect(calibrate(c, s)).toBeCloseTo(s, 2);
  });

  it('applies to every blended score and keeps their order', () => {
    const calibration = { raw: [0, 1], calibrated: [0, 0.5] };
    const plain = blend([hit('r1', 0.4, 100), hit('r2', 0.5, 300)]);
    const scaled = new Map(
      blendTerms({
        hits: [hit('r1', 0.4, 100), hit('r2', 0.5, 300)],
        termsOf: (r) => REFERENCES[r],
        prior,
        params: { ...params, calibration },
        minScore: 0,
      }).map((t) => [t.goId, t.score]),
    );
    for (const [goId, term] of plain) expect(scaled.get(goId)).toBeCloseTo(term.score / 2, 12);
  });
});
