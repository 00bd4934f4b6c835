// Prediction quality against the baselines a biologist would otherwise use, on two temporal windows
// of the human data beside the repository (../shared/data):
//   naive        the term's frequency among the reference proteins of its aspect
//   diamond-knn  DIAMOND blastp --sensitive --evalue 1e-3 --max-target-seqs 50, experimental donors,
//                score = max pident / 100 per term
//   default      the service's default: the same DIAMOND hits blended with the prior by the shipped
//                model (libs/go-transfer/src/blend), the prior informed by what is known of the target
//                (its t0 terms: docs/prediction.md, "Association"), the code path of predict_go_terms
// An ablation column gives the default without the association.
// All three are scored by the service's CAFA evaluator (f_micro_w; IA from the t0 annotations,
// known terms on PK), NK accessions carried over at gene level left out, no target donating to itself.
// The model was fitted on the older window and selected on window A (npm run train:blend).
// Usage: npm run bench:quality [-- --data <shared data dir>]
import { join, resolve } from 'node:path';
import { type GoAspect, type HoldoutCategory } from '@svc/domain';
import { diamondVersion } from '@svc/inference';
import { defaultBlendModel } from '@svc/go-transfer';
import { searchWindow } from '../quality/homology';
import {
  blendPredictor,
  type CellScores,
  defaultPredictor,
  evaluatePredictor,
  knnPredictor,
  labelledScores,
  naivePredictor,
  type Predictor,
  windowEvaluators,
} from '../quality/methods';
import {
  ASPECTS,
  CATEGORIES,
  loadWindow,
  type QualityWindow,
  readSequences,
  WINDOWS,
} from '../quality/windows';

/** The goal: every NK and LK cell this far above the better baseline, every PK cell above naive. */
const MARGIN = 0.05;
const PK_MARGIN = 0.02;
const ASPECT_NAME: Record<GoAspect, string> = { F: 'MF', P: 'BP', C: 'CC' };

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const seconds = (since: bigint): number => Number(process.hrtime.bigint() - since) / 1e9;
const f3 = (value: number): string => value.toFixed(3);
const signed = (value: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;

/** Expected calibration error over 10 equal-width bins of (score, confirmed) samples. */
function expectedCalibrationError(samples: Iterable<{ score: number; label: boolean }>): {
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

/**
 * Calibration of the default's scores over NK and LK: overall (with its bins), per aspect, and per
 * band of term specificity, so that a specific term is checked apart from the generic ones.
 */
function calibration(
  window: QualityWindow,
  predictor: Predictor,
): { ece: number; bins: string[]; perAspect: string; perBand: string } {
  const samples = labelledScores(window, predictor, ['NK', 'LK']);
  const overall = expectedCalibrationError(ASPECTS.flatMap((a) => samples[a]));
  const perAspect = ASPECTS.map((a) => `${ASPECT_NAME[a]} ${f3(expectedCalibrationError(samples[a]).ece)}`);
  const band = (aspect: GoAspect, term: string): number => {
    const frequency = window.priors[aspect].frequency.get(term) ?? 0;
    const ic = frequency > 0 ? -Math.log2(frequency) : Infinity;
    return IC_BANDS.findIndex((b) => ic < b.below);
  };
  const perBand = IC_BANDS.map((b, i) => {
    const inBand = ASPECTS.flatMap((a) => samples[a].filter((s) => band(a, s.term) === i));
    const { ece, n } = expectedCalibrationError(inBand);
    return `${b.name} ${f3(ece)} (n ${n})`;
  });
  return {
    ece: overall.ece,
    bins: overall.bins,
    perAspect: perAspect.join(', '),
    perBand: perBand.join(', '),
  };
}

async function benchWindow(
  dataDir: string,
  key: 'older' | 'A',
  sequences: Map<string, string>,
): Promise<boolean> {
  const window = loadWindow(dataDir, WINDOWS[key], sequences);
  const searched = await searchWindow(window);
  const evaluators = windowEvaluators(window);
  const model = defaultBlendModel();
  const methods: Record<string, Predictor> = {
    naive: naivePredictor(window),
    'diamond-knn': knnPredictor(window, searched.hits),
    default: defaultPredictor(window, searched.hits, model),
    // Ablation: the default without the association from what is known of the target.
    'no association': blendPredictor(window, searched.hits, model),
  };
  const scores: Record<string, CellScores> = {};
  const timings: Record<string, number> = {};
  const counts: Record<string, { predictions: number; targets: number }> = {};
  for (const [name, predictor] of Object.entries(methods)) {
    const started = process.hrtime.bigint();
    counts[name] = { predictions: 0, targets: 0 };
    scores[name] = evaluatePredictor(window, evaluators, predictor, CATEGORIES, counts[name]);
    timings[name] = seconds(started);
  }

  const targets = CATEGORIES.map((c) => `${c} ${window.targets[c].size}`).join(', ');
  console.log(`\n## window ${window.spec.name}${key === 'older' ? ' [fitted on]' : ' [selected on]'}`);
  console.log(
    `references ${window.references.size}, targets ${targets}, NK carry-over removed ${window.carryOver}; ` +
      `DIAMOND makedb ${searched.makedbSeconds.toFixed(1)} s, search ${searched.searchSeconds.toFixed(1)} s for ${searched.queries} queries`,
  );
  console.log(
    '| cat | ns | naive | diamond-knn | default | margin vs best baseline | default without association |',
  );
  console.log('|---|---|---|---|---|---|---|');
  let wins = 0;
  let pkHolds = 0;
  for (const category of CATEGORIES) {
    for (const aspect of ASPECTS) {
      const naive = scores.naive![category][aspect];
      const knn = scores['diamond-knn']![category][aspect];
      const ours = scores.default![category][aspect];
      const margin = category === 'PK' ? ours - naive : ours - Math.max(naive, knn);
      if (category !== 'PK' && margin >= MARGIN) wins++;
      if (category === 'PK' && margin >= PK_MARGIN) pkHolds++;
      console.log(
        `| ${category} | ${ASPECT_NAME[aspect]} | ${f3(naive)} | ${f3(knn)} | ${f3(ours)} | ${signed(margin)}${category === 'PK' ? ' (vs naive)' : ''} | ${f3(scores['no association']![category][aspect])} |`,
      );
    }
  }
  const cal = calibration(window, methods.default!);
  console.log(
    `default wins ${wins}/6 NK and LK cells by >= ${MARGIN}; PK above naive by >= ${PK_MARGIN} in ${pkHolds}/3; ` +
      `calibration (NK+LK, 10 bins) ECE ${f3(cal.ece)}`,
  );
  console.log(`  per aspect: ${cal.perAspect}`);
  console.log(`  per band of term specificity: ${cal.perBand}`);
  for (const line of cal.bins) console.log(`  ${line}`);
  console.log(
    `terms per (target, category): ${Object.entries(counts)
      .map(([name, c]) => `${name} ${(c.predictions / c.targets).toFixed(0)}`)
      .join(', ')}`,
  );
  console.log(
    `scoring + evaluation seconds: ${Object.entries(timings)
      .map(([name, s]) => `${name} ${s.toFixed(1)}`)
      .join(', ')}`,
  );
  return wins === 6 && pkHolds === 3;
}

async function main(): Promise<void> {
  const root = resolve(__dirname, '..', '..');
  const dataDir = resolve(option('data') ?? join(root, '..', 'shared', 'data'));
  const version = await diamondVersion();
  if (version === null) {
    throw new Error('DIAMOND is not installed: apt-get install diamond-aligner (or set SVC_DIAMOND_BIN)');
  }
  console.log(
    `# bench:quality: f_micro_w by the service's evaluator; DIAMOND ${version}; model ${defaultBlendModel().version}`,
  );
  const sequences = readSequences(dataDir);
  const held: Record<string, boolean> = {};
  for (const key of ['older', 'A'] as const) held[key] = await benchWindow(dataDir, key, sequences);
  console.log(
    `\ngoal (window A: every NK/LK cell >= best baseline + ${MARGIN}, PK >= naive + ${PK_MARGIN}): ${held.A ? 'met' : 'NOT met'}`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

export type { HoldoutCategory };
