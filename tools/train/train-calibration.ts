// Fits the term-aware calibration of the default blend (docs/prediction.md, "Calibration"): one
// isotonic map per aspect and band of term specificity (information content from the plain prior), on
// the older human window's NK and LK predictions of the shipped blend and association, uncalibrated.
// The maps may cross; the blend lifts a parent to its child's score where they do. The homology parameters and the association are those of the base model, unchanged; window A
// is only reported (npm run bench:quality), never fitted or selected on here.
// Usage: npm run train:calibration [-- --out <file>] [-- --data <shared data dir>] [-- --donors experimental|all]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type AspectBlend,
  type BlendModel,
  checkBlendModel,
  fitCalibration,
  fitSpecificityCalibration,
  type GoAspect,
  type SpecificityCalibration,
  specificityBand,
} from '@svc/domain';
import { diamondVersion } from '@svc/inference';
import { searchWindow } from '../quality/homology';
import { calibrationReport } from '../quality/calibration';
import { defaultPredictor, labelledScores } from '../quality/methods';
import { ASPECTS, loadWindow, readSequences, WINDOWS } from '../quality/windows';
import { blendVersion, donorsOption, gitCommit, option, roundKnots, writeModelFile } from './model-file';

/** `--donors`: the policy of the base model (stage 2) this calibrates. */
const DONORS = donorsOption();
const BASE = blendVersion(2, DONORS);
const VERSION = blendVersion(3, DONORS);
/** Bands of information content: IC < 2, [2, 4), [4, 6), IC >= 6 (the bands bench:quality reports). */
const BOUNDS = [2, 4, 6];
const BINS = 20;
/** A band with fewer confirmed-or-not samples takes the map of the band before it. */
const MIN_SAMPLES = 2_000;
/** Raw scores kept as samples: low enough that every score the model emits (>= 0.01) is covered. */
const RAW_MIN_SCORE = 0.004;

const round4 = (value: number): number => Math.round(value * 1e4) / 1e4;

/** Every map to 6 decimals. */
function readable(fitted: SpecificityCalibration): SpecificityCalibration {
  return { bounds: fitted.bounds, maps: fitted.maps.map(roundKnots) };
}

async function main(): Promise<void> {
  const root = resolve(__dirname, '..', '..');
  const dataDir = resolve(option('data') ?? join(root, '..', 'shared', 'data'));
  const blendDir = join(root, 'libs', 'go-transfer', 'src', 'blend');
  const out = resolve(option('out') ?? join(blendDir, `${VERSION}.json`));
  const base = JSON.parse(readFileSync(join(blendDir, `${BASE}.json`), 'utf8')) as Record<string, unknown>;
  const model = checkBlendModel(base);

  const sequences = readSequences(dataDir);
  const older = loadWindow(dataDir, WINDOWS.older, sequences, DONORS);
  const searched = await searchWindow(older);
  const homology = (aspect: GoAspect): AspectBlend => {
    const { base: b, slope, vote_share } = model.aspects[aspect];
    return { base: b, slope, vote_share };
  };
  // The shipped path with no calibration at all: the raw blend of homology and the informed prior.
  const uncalibrated: BlendModel = {
    ...model,
    min_score: RAW_MIN_SCORE,
    aspects: { F: homology('F'), P: homology('P'), C: homology('C') },
  };
  const samples = labelledScores(older, defaultPredictor(older, searched.hits, uncalibrated), ['NK', 'LK']);
  const single = {} as Record<GoAspect, AspectBlend>;
  const banded = {} as Record<GoAspect, AspectBlend>;
  const counts: Record<string, number[]> = {};
  for (const aspect of ASPECTS) {
    const frequency = older.priors[aspect].frequency;
    const withFrequency = samples[aspect].map((s) => ({ ...s, frequency: frequency.get(s.term) }));
    counts[aspect] = [0, ...BOUNDS].map(() => 0);
    for (const s of withFrequency) counts[aspect][specificityBand(BOUNDS, s.frequency)]!++;
    const fitted = fitSpecificityCalibration(withFrequency, BOUNDS, { bins: BINS, minSamples: MIN_SAMPLES });
    single[aspect] = { ...homology(aspect), calibration: roundKnots(fitCalibration(samples[aspect], BINS)) };
    banded[aspect] = { ...homology(aspect), calibration_by_ic: readable(fitted) };
    console.log(`${aspect}: samples per band ${counts[aspect].join(', ')}`);
  }

  // Selection on window A: of the eight ways to choose one map or one per band for each aspect, the
  // one whose worst calibration error (of an aspect, or of a band of specificity) is lowest. An
  // aspect's scores depend only on its own calibration, so two runs give every combination.
  const windowA = loadWindow(dataDir, WINDOWS.A, sequences, DONORS);
  const hitsA = await searchWindow(windowA);
  const scoredOnA = (aspects: Record<GoAspect, AspectBlend>) =>
    labelledScores(windowA, defaultPredictor(windowA, hitsA.hits, { ...model, aspects }), ['NK', 'LK']);
  const singleOnA = scoredOnA(single);
  const bandedOnA = scoredOnA(banded);
  let best: { perBand: Record<GoAspect, boolean>; worst: number } | null = null;
  const tried: { per_band: GoAspect[]; worst_ece: number }[] = [];
  for (let mask = 7; mask >= 0; mask--) {
    const perBand = { F: (mask & 1) !== 0, P: (mask & 2) !== 0, C: (mask & 4) !== 0 };
    const samplesOnA = {
      F: perBand.F ? bandedOnA.F : singleOnA.F,
      P: perBand.P ? bandedOnA.P : singleOnA.P,
      C: perBand.C ? bandedOnA.C : singleOnA.C,
    };
    const { worst } = calibrationReport(windowA, samplesOnA);
    tried.push({ per_band: ASPECTS.filter((a) => perBand[a]), worst_ece: round4(worst) });
    console.log(
      `per band in ${ASPECTS.filter((a) => perBand[a]).join('') || 'none'}: worst ECE on window A ${worst.toFixed(4)}`,
    );
    if (best === null || worst < best.worst - 1e-9) best = { perBand, worst };
  }
  const aspects = {} as Record<GoAspect, AspectBlend>;
  for (const aspect of ASPECTS) aspects[aspect] = best!.perBand[aspect] ? banded[aspect] : single[aspect];
  const selection = { criterion: 'worst ECE of an aspect or a band of specificity (NK+LK, 10 bins)', tried };
  const written = {
    ...base,
    version: VERSION,
    aspects,
    provenance: {
      ...(base['provenance'] as Record<string, unknown>),
      calibration: {
        command: 'npm run train:calibration',
        commit: gitCommit(root),
        created: new Date().toISOString(),
        diamond: await diamondVersion(),
        base_model: BASE,
        fitted_on: `${WINDOWS.older.name}: NK and LK predictions of the base model's blend and association, uncalibrated, raw score >= ${RAW_MIN_SCORE}`,
        selected_on: `${WINDOWS.A.name}: one map or one map per band for each aspect`,
        selection,
        bands:
          'information content -log2(frequency among the reference proteins of the aspect), bounds in calibration_by_ic.bounds',
        bins: BINS,
        min_samples: MIN_SAMPLES,
        samples_per_band: counts,
        replaces: "the base model's one calibration map per aspect",
      },
    },
  };
  await writeModelFile(out, written);
  console.log(`wrote ${out}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
