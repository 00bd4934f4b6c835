// Calibration of a predictor's scores: how far the scores are from the share of them confirmed.
import type { GoAspect } from '@svc/domain';
import { ASPECTS, type QualityWindow } from './windows';

const ASPECT_NAME: Record<GoAspect, string> = { F: 'MF', P: 'BP', C: 'CC' };

const f3 = (value: number): string => value.toFixed(3);

/** Expected calibration error over 10 equal-width bins of (score, confirmed) samples. */
export function expectedCalibrationError(samples: Iterable<{ score: number; label: boolean }>): {
  ece: number;
  n: number;
  bins: string[];
} {
  const counts = Array.from({ length: 10 }, () => ({ n: 0, score: 0, hits: 0 }));
  for (const { score, label } of samples) {
    const bin = counts[Math.min(9, Math.floor(score * 10))]!;
    bin.n++;
    bin.score += score;
    if (label) bin.hits++;
  }
  const total = counts.reduce((sum, bin) => sum + bin.n, 0);
  let ece = 0;
  const bins: string[] = [];
  counts.forEach((bin, index) => {
    if (bin.n === 0) return;
    const meanScore = bin.score / bin.n;
    const precision = bin.hits / bin.n;
    ece += (bin.n / total) * Math.abs(meanScore - precision);
    bins.push(
      `[${(index / 10).toFixed(1)},${((index + 1) / 10).toFixed(1)}) n=${bin.n} mean score ${f3(meanScore)} precision ${f3(precision)}`,
    );
  });
  return { ece, n: total, bins };
}

/** Bands of term specificity: information content, -log2 of the term's share of the aspect's references. */
const IC_BANDS = [
  { name: 'IC < 2', below: 2 },
  { name: '2 <= IC < 4', below: 4 },
  { name: '4 <= IC < 6', below: 6 },
  { name: 'IC >= 6', below: Infinity },
] as const;

export interface CalibrationReport {
  ece: number;
  bins: string[];
  perAspect: string;
  perBand: string;
  /** The bins of each aspect whose error exceeds `bound`, to see where it comes from. */
  overBound: string[];
  /** The largest error of any aspect or band. */
  worst: number;
}

/** Calibration of labelled scores: overall (with its bins), per aspect, and per band of specificity. */
export function calibrationReport(
  window: QualityWindow,
  samples: Record<GoAspect, { term: string; score: number; label: boolean }[]>,
  bound = Infinity,
): CalibrationReport {
  const overall = expectedCalibrationError(ASPECTS.flatMap((a) => samples[a]));
  let worst = 0;
  const overBound: string[] = [];
  const perAspect = ASPECTS.map((a) => {
    const { ece, bins } = expectedCalibrationError(samples[a]);
    worst = Math.max(worst, ece);
    if (ece > bound) overBound.push(`${ASPECT_NAME[a]} ${f3(ece)}:`, ...bins.map((bin) => `  ${bin}`));
    return `${ASPECT_NAME[a]} ${f3(ece)}`;
  });
  const band = (aspect: GoAspect, term: string): number => {
    const frequency = window.priors[aspect].frequency.get(term) ?? 0;
    const ic = frequency > 0 ? -Math.log2(frequency) : Infinity;
    return IC_BANDS.findIndex((b) => ic < b.below);
  };
  const perBand = IC_BANDS.map((b, i) => {
    const inBand = ASPECTS.flatMap((a) => samples[a].filter((s) => band(a, s.term) === i));
    const { ece, n } = expectedCalibrationError(inBand);
    worst = Math.max(worst, ece);
    return `${b.name} ${f3(ece)} (n ${n})`;
  });
  return {
    worst,
    ece: overall.ece,
    bins: overall.bins,
    perAspect: perAspect.join(', '),
    perBand: perBand.join(', '),
    overBound,
  };
}
