// Prediction quality against the baselines a biologist would otherwise use, on two temporal windows
// of the human data beside the repository (../shared/data):
//   naive        the term's frequency among the reference proteins of its aspect
//   diamond-knn  DIAMOND blastp --sensitive --evalue 1e-3 --max-target-seqs 50, experimental donors,
//                score = max pident / 100 per term
//   default      the service's default: the same DIAMOND hits blended with the prior by the shipped
//                model (libs/go-transfer/src/blend), the prior informed by what is known of the target
//                (its t0 terms: docs/prediction.md, "Association"), the code path of predict_go_terms
// Ablation columns give each lever's contribution: the default without the association, and the
// default with one calibration map per aspect (homology-blend-v2) instead of one per band of term
// specificity. The last column is the breadth lever: every evidence code donates (`donor_evidence:
// all`, electronic annotations included), scored by the blend fitted for that policy
// (homology-blend-all-v3) on its own DIAMOND search of the wider reference; the targets, truth and
// IA are the same.
// All three are scored by the service's CAFA evaluator (f_micro_w; IA from the t0 annotations,
// known terms on PK), NK accessions carried over at gene level left out, no target donating to itself.
// The model was fitted on the older window and selected on window A (npm run train:blend).
// Usage: npm run bench:quality [-- --data <shared data dir>]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type BlendModel, checkBlendModel, type GoAspect, type HoldoutCategory } from '@svc/domain';
import { diamondVersion } from '@svc/inference';
import { blendModelFor, defaultBlendModel } from '@svc/go-transfer';
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
import { calibrationReport, type CalibrationReport } from '../quality/calibration';
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
/** Expected calibration error (10 bins, NK+LK) allowed per aspect and per band of specificity. */
const CALIBRATION_BOUND = 0.02;
const ASPECT_NAME: Record<GoAspect, string> = { F: 'MF', P: 'BP', C: 'CC' };

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const seconds = (since: bigint): number => Number(process.hrtime.bigint() - since) / 1e9;
const f3 = (value: number): string => value.toFixed(3);
const signed = (value: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;

/**
 * Calibration of the default's scores over NK and LK: overall (with its bins), per aspect, and per
 * band of term specificity, so that a specific term is checked apart from the generic ones.
 */
function calibration(window: QualityWindow, predictor: Predictor): CalibrationReport {
  return calibrationReport(window, labelledScores(window, predictor, ['NK', 'LK']), CALIBRATION_BOUND);
}

/** The previous default, one calibration map per aspect: the term-aware calibration's ablation. */
function perAspectModel(): BlendModel {
  const file = join(__dirname, '..', '..', 'libs', 'go-transfer', 'src', 'blend', 'homology-blend-v2.json');
  return checkBlendModel(JSON.parse(readFileSync(file, 'utf8')));
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
  // The breadth lever: every evidence code donates, with the blend fitted for that policy.
  const wide = loadWindow(dataDir, WINDOWS[key], sequences, 'all');
  const wideSearched = await searchWindow(wide);
  const wideModel = blendModelFor('all');
  const methods: Record<string, Predictor> = {
    naive: naivePredictor(window),
    'diamond-knn': knnPredictor(window, searched.hits),
    default: defaultPredictor(window, searched.hits, model),
    // Ablations: the default without the association from what is known of the target, and with one
    // calibration map per aspect instead of one per band of term specificity.
    'no association': blendPredictor(window, searched.hits, model),
    'one map per aspect': defaultPredictor(window, searched.hits, perAspectModel()),
    'every evidence code': defaultPredictor(wide, wideSearched.hits, wideModel),
  };
  const scores: Record<string, CellScores> = {};
  const timings: Record<string, { seconds: number }> = {};
  const counts: Record<string, { predictions: number; targets: number }> = {};
  for (const [name, predictor] of Object.entries(methods)) {
    counts[name] = { predictions: 0, targets: 0 };
    const timing = (timings[name] = { seconds: 0 });
    // Only the scoring is timed, not the evaluation of what it gives.
    const timed: Predictor = (target, aspect) => {
      const started = process.hrtime.bigint();
      const out = [...predictor(target, aspect)];
      timing.seconds += seconds(started);
      return out;
    };
    scores[name] = evaluatePredictor(window, evaluators, timed, CATEGORIES, counts[name]);
  }

  const targets = CATEGORIES.map((c) => `${c} ${window.targets[c].size}`).join(', ');
  console.log(`\n## window ${window.spec.name}${key === 'older' ? ' [fitted on]' : ' [selected on]'}`);
  console.log(
    `references ${window.references.size}, targets ${targets}, NK carry-over removed ${window.carryOver}; ` +
      `DIAMOND makedb ${searched.makedbSeconds.toFixed(1)} s, search ${searched.searchSeconds.toFixed(1)} s for ${searched.queries} queries`,
  );
  console.log(
    `every evidence code as donors: references ${wide.references.size}, model ${wideModel.version} ` +
      `(fitted for ${wideModel.donor_evidence} donors), DIAMOND search ${wideSearched.searchSeconds.toFixed(1)} s`,
  );
  console.log(
    '| cat | ns | naive | diamond-knn | default | margin vs best baseline | without association | one calibration map per aspect | every evidence code as donors | its margin |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  let wins = 0;
  let pkHolds = 0;
  for (const category of CATEGORIES) {
    for (const aspect of ASPECTS) {
      const naive = scores.naive![category][aspect];
      const knn = scores['diamond-knn']![category][aspect];
      const ours = scores.default![category][aspect];
      const marginOf = (f: number): number => (category === 'PK' ? f - naive : f - Math.max(naive, knn));
      const margin = marginOf(ours);
      const wideF = scores['every evidence code']![category][aspect];
      if (category !== 'PK' && margin >= MARGIN) wins++;
      if (category === 'PK' && margin >= PK_MARGIN) pkHolds++;
      console.log(
        `| ${category} | ${ASPECT_NAME[aspect]} | ${f3(naive)} | ${f3(knn)} | ${f3(ours)} | ${signed(margin)}${category === 'PK' ? ' (vs naive)' : ''} | ${f3(scores['no association']![category][aspect])} | ${f3(scores['one map per aspect']![category][aspect])} | ${f3(wideF)} | ${signed(marginOf(wideF))} |`,
      );
    }
  }
  const cal = calibration(window, methods.default!);
  const calibrated = cal.worst <= CALIBRATION_BOUND;
  console.log(
    `default wins ${wins}/6 NK and LK cells by >= ${MARGIN}; PK above naive by >= ${PK_MARGIN} in ${pkHolds}/3; ` +
      `calibration (NK+LK, 10 bins) ECE ${f3(cal.ece)}, worst aspect or band ${f3(cal.worst)} ` +
      `(bound ${CALIBRATION_BOUND}: ${calibrated ? 'met' : 'NOT met'})`,
  );
  console.log(`  per aspect: ${cal.perAspect}`);
  console.log(`  per band of term specificity: ${cal.perBand}`);
  for (const line of cal.bins) console.log(`  ${line}`);
  if (cal.overBound.length > 0) console.log('  bins of each aspect over the bound:');
  for (const line of cal.overBound) console.log(`    ${line}`);
  const wideCal = calibration(wide, methods['every evidence code']!);
  console.log(
    `  every evidence code as donors (${wideModel.version}): ECE ${f3(wideCal.ece)}, worst ${f3(wideCal.worst)}; per aspect ${wideCal.perAspect}; per band ${wideCal.perBand}`,
  );
  const single = calibration(window, methods['one map per aspect']!);
  console.log(
    `  with one calibration map per aspect: ECE ${f3(single.ece)}; per aspect ${single.perAspect}; per band ${single.perBand}`,
  );
  console.log(
    `terms per (target, category): ${Object.entries(counts)
      .map(([name, c]) => `${name} ${(c.predictions / c.targets).toFixed(0)}`)
      .join(', ')}`,
  );
  // Per 1,000 targets: DIAMOND's share (one search for every target) and the scoring (per target and
  // category, as the evaluation asks for it).
  const perThousand = (value: number, n: number): string => ((value / n) * 1000).toFixed(2);
  console.log(
    `seconds per 1,000 targets: DIAMOND search ${perThousand(searched.searchSeconds, searched.queries)}; scoring ${Object.entries(
      timings,
    )
      .map(([name, t]) => `${name} ${perThousand(t.seconds, counts[name]!.targets)}`)
      .join(', ')}`,
  );
  // The rule: the default path (search and scoring) at most 1.5 times as long per protein as without
  // the association.
  const path = (name: string): number =>
    searched.searchSeconds / searched.queries + timings[name]!.seconds / counts[name]!.targets;
  console.log(
    `default path per protein (search + scoring): ${(path('default') / path('no association')).toFixed(2)}x the path without the association`,
  );
  return wins === 6 && pkHolds === 3 && calibrated;
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
    `\ngoal (window A: every NK/LK cell >= best baseline + ${MARGIN}, PK >= naive + ${PK_MARGIN}, ECE <= ${CALIBRATION_BOUND} per aspect and band): ${held.A ? 'met' : 'NOT met'}`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

export type { HoldoutCategory };
