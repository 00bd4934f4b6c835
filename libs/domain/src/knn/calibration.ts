/**
 * Calibration of the default blend's scores (docs/prediction.md, "Score"): isotonic, piecewise-linear
 * maps from a raw blend to the share of such predictions confirmed on the fitting window, one per
 * aspect or one per band of term specificity. Pure.
 */

/** Knots of a non-decreasing piecewise-linear map of [0, 1] onto [0, 1]; `raw` strictly increasing. */
export interface Calibration {
  raw: number[];
  calibrated: number[];
}

/**
 * One calibration map per band of term specificity: the information content -log2(f) of a term,
 * with f its frequency among the reference proteins of the aspect (the plain prior). A specific term
 * backed by a close homolog is confirmed more often than a generic one at the same blend, so the maps
 * may cross: the blend then lifts every ancestor of a term to at least the term's score.
 */
export interface SpecificityCalibration {
  /** Upper IC bounds of every band but the last, increasing: [2, 4, 6] = IC<2, [2,4), [4,6), IC>=6. */
  bounds: number[];
  /** One map per band, `bounds.length + 1`, most generic first. */
  maps: Calibration[];
}

/** How an aspect calibrates the blend. */
export interface CalibrationSettings {
  /**
   * Maps the blend to the share of such predictions that were confirmed on the fitting window
   * (isotonic, piecewise linear through the knots); absent = the blend as is.
   */
  calibration?: Calibration;
  /**
   * Term-aware calibration: one map per band of term specificity, used instead of `calibration` when
   * present (see `SpecificityCalibration`).
   */
  calibration_by_ic?: SpecificityCalibration;
}

const clamp01 = (value: number): number => Math.min(1, Math.max(0, value));

/** The calibrated value of a raw score: linear between knots, the end knots' values outside them. */
export function calibrate(calibration: Calibration | undefined, raw: number): number {
  if (calibration === undefined) return raw;
  const { raw: xs, calibrated: ys } = calibration;
  if (xs.length === 0) return raw;
  if (raw <= xs[0]!) return ys[0]!;
  const last = xs.length - 1;
  if (raw >= xs[last]!) return ys[last]!;
  let lo = 0;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= raw) lo = mid;
    else hi = mid;
  }
  const t = (raw - xs[lo]!) / (xs[hi]! - xs[lo]!);
  return clamp01(ys[lo]! + t * (ys[hi]! - ys[lo]!));
}

/**
 * Isotonic calibration from labelled scores: equal-count bins of the sorted scores, pooled
 * (pool-adjacent-violators) until their hit rates never fall as the score rises, then one knot per
 * pooled block at (mean score, hit rate), with (0, 0) and (1, last rate) as ends.
 */
export function fitCalibration(
  samples: readonly { score: number; label: boolean }[],
  bins = 20,
): Calibration {
  const sorted = [...samples].sort((a, b) => a.score - b.score);
  const blocks: { sum: number; hits: number; n: number }[] = [];
  const per = Math.max(1, Math.ceil(sorted.length / bins));
  for (let start = 0; start < sorted.length; start += per) {
    const block = { sum: 0, hits: 0, n: 0 };
    for (const sample of sorted.slice(start, start + per)) {
      block.sum += sample.score;
      block.hits += sample.label ? 1 : 0;
      block.n++;
    }
    blocks.push(block);
    // Pool while the previous block's rate is not below this one's.
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1]!;
      const a = blocks[blocks.length - 2]!;
      if (a.hits / a.n < b.hits / b.n) break;
      blocks.splice(blocks.length - 2, 2, { sum: a.sum + b.sum, hits: a.hits + b.hits, n: a.n + b.n });
    }
  }
  const raw: number[] = [0];
  const calibrated: number[] = [0];
  for (const block of blocks) {
    const x = block.sum / block.n;
    const y = block.hits / block.n;
    if (x <= raw[raw.length - 1]!) {
      calibrated[calibrated.length - 1] = Math.max(calibrated[calibrated.length - 1]!, y);
      continue;
    }
    raw.push(x);
    calibrated.push(y);
  }
  const n = raw.length;
  if (raw[n - 1]! < 1) {
    // Beyond the last block the map keeps the last segment's slope: a flat end would tie every
    // high score and leave a threshold nothing to separate.
    const slope = n >= 2 ? (calibrated[n - 1]! - calibrated[n - 2]!) / (raw[n - 1]! - raw[n - 2]!) : 0;
    raw.push(1);
    calibrated.push(Math.min(1, calibrated[n - 1]! + slope * (1 - raw[n - 1]!)));
  }
  return { raw, calibrated };
}

/** A term's band of specificity: the first band whose upper bound its information content is below. */
export function specificityBand(bounds: readonly number[], frequency: number | undefined): number {
  const ic = frequency !== undefined && frequency > 0 ? -Math.log2(frequency) : Infinity;
  const band = bounds.findIndex((bound) => ic < bound);
  return band < 0 ? bounds.length : band;
}

/** The calibration map of each term: its band's when the aspect has term-aware calibration. */
export function termCalibration(
  params: CalibrationSettings,
  specificity: { frequency: { get(term: string): number | undefined } },
): (goId: string) => Calibration | undefined {
  const byIc = params.calibration_by_ic;
  if (byIc === undefined) return () => params.calibration;
  return (goId) => byIc.maps[specificityBand(byIc.bounds, specificity.frequency.get(goId))];
}

/**
 * Term-aware calibration from labelled scores, each with its term's frequency in the plain prior: one
 * isotonic map per band of specificity (`fitCalibration`), a band with fewer than `minSamples` taking
 * the map of the band before it.
 */
export function fitSpecificityCalibration(
  samples: readonly { score: number; label: boolean; frequency: number | undefined }[],
  bounds: readonly number[],
  options: { bins?: number; minSamples?: number } = {},
): SpecificityCalibration {
  const byBand: { score: number; label: boolean }[][] = bounds.map(() => []);
  byBand.push([]);
  for (const sample of samples) byBand[specificityBand(bounds, sample.frequency)]!.push(sample);
  const maps: Calibration[] = [];
  byBand.forEach((band, i) => {
    const previous = maps[i - 1];
    if (band.length < (options.minSamples ?? 1) && previous !== undefined) {
      maps.push(previous);
      return;
    }
    maps.push(fitCalibration(band, options.bins));
  });
  return { bounds: [...bounds], maps };
}

export function isValidCalibration(calibration: Calibration): boolean {
  const { raw, calibrated } = calibration;
  return (
    Array.isArray(raw) &&
    Array.isArray(calibrated) &&
    raw.length === calibrated.length &&
    raw.length > 0 &&
    raw.every((x, i) => typeof x === 'number' && x >= 0 && x <= 1 && (i === 0 || x > raw[i - 1]!)) &&
    calibrated.every(
      (y, i) => typeof y === 'number' && y >= 0 && y <= 1 && (i === 0 || y >= calibrated[i - 1]!),
    )
  );
}
