// Fits the default blend of homology votes and the term prior (libs/domain/src/knn/homology-blend.ts)
// on the older human window, selects among the best fits on window A, and writes the model with its
// provenance. Usage: npm run train:blend [-- --out <file>] [-- --data <shared data dir>]
// [-- --donors experimental|all] (all: every evidence code donates, homology-blend-all-v1)
//
// Fit: a grid over (base, slope, vote_share), one choice per aspect, maximising the mean f_micro_w
// of NK, LK and PK on the older window (t0 2020-09 -> t1 2022-09). Select: of the three best fits
// of each aspect, the one with the highest mean on window A (t0 2022-09 -> t1 2024-09). Nothing
// is fitted on window A; later windows are never seen.
import { join, resolve } from 'node:path';
import { type AspectBlend, type BlendModel, fitCalibration, type GoAspect } from '@svc/domain';
import { diamondVersion } from '@svc/inference';
import { searchWindow } from '../quality/homology';
import {
  blendVersion,
  DONOR_WORDS,
  donorsOption,
  gitCommit,
  option,
  roundKnots,
  writeModelFile,
} from './model-file';
import {
  blendPredictor,
  type CellScores,
  evaluatePredictor,
  labelledScores,
  windowEvaluators,
} from '../quality/methods';
import { ASPECTS, CATEGORIES, loadWindow, readSequences, WINDOWS } from '../quality/windows';

const MIN_SCORE = 0.01;
/** The t0 annotations that donate (`--donors`, experimental by default): the model says so. */
const DONOR_POLICY = donorsOption();
const VERSION = blendVersion(1, DONOR_POLICY);
const GRID = {
  base: [0, 0.2, 0.4, 0.6, 0.8, 1],
  slope: [0, 0.5, 1],
  vote_share: [0.5, 0.75, 1],
};

const meanOver = (scores: CellScores, aspect: GoAspect): number =>
  CATEGORIES.reduce((sum, category) => sum + scores[category][aspect], 0) / CATEGORIES.length;

function modelOf(params: Record<GoAspect, AspectBlend>): BlendModel {
  return { version: VERSION, min_score: MIN_SCORE, donor_evidence: DONOR_POLICY, aspects: params };
}

async function main(): Promise<void> {
  const root = resolve(__dirname, '..', '..');
  const dataDir = resolve(option('data') ?? join(root, '..', 'shared', 'data'));
  const out = resolve(option('out') ?? join(root, 'libs', 'go-transfer', 'src', 'blend', `${VERSION}.json`));
  const sequences = readSequences(dataDir);

  const older = loadWindow(dataDir, WINDOWS.older, sequences, DONOR_POLICY);
  const olderHits = await searchWindow(older);
  const olderEval = windowEvaluators(older);
  const fits: { params: AspectBlend; scores: CellScores }[] = [];
  for (const base of GRID.base) {
    for (const slope of GRID.slope) {
      if (base === 1 && slope > 0) continue; // the same as slope 0 once clamped
      for (const vote_share of GRID.vote_share) {
        const params = { base, slope, vote_share };
        const scores = evaluatePredictor(
          older,
          olderEval,
          blendPredictor(older, olderHits.hits, modelOf({ F: params, P: params, C: params })),
        );
        fits.push({ params, scores });
        process.stdout.write(
          `fit ${JSON.stringify(params)} ${ASPECTS.map((a) => meanOver(scores, a).toFixed(4)).join(' ')}\n`,
        );
      }
    }
  }
  const shortlist = {} as Record<GoAspect, AspectBlend[]>;
  for (const aspect of ASPECTS) {
    shortlist[aspect] = [...fits]
      .sort((a, b) => meanOver(b.scores, aspect) - meanOver(a.scores, aspect))
      .slice(0, 3)
      .map((fit) => fit.params);
  }

  const windowA = loadWindow(dataDir, WINDOWS.A, sequences, DONOR_POLICY);
  const hitsA = await searchWindow(windowA);
  const evalA = windowEvaluators(windowA);
  const chosen = {} as Record<GoAspect, AspectBlend>;
  const selection: Record<string, unknown> = {};
  for (const aspect of ASPECTS) {
    let best: { params: AspectBlend; score: number } | null = null;
    const tried: { params: AspectBlend; window_a_mean: number }[] = [];
    for (const params of shortlist[aspect]) {
      const scores = evaluatePredictor(
        windowA,
        evalA,
        blendPredictor(windowA, hitsA.hits, modelOf({ F: params, P: params, C: params })),
      );
      const score = meanOver(scores, aspect);
      tried.push({ params, window_a_mean: round(score) });
      if (best === null || score > best.score) best = { params, score };
    }
    chosen[aspect] = best!.params;
    selection[aspect] = tried;
  }
  // Calibration, fitted on the older window's NK and LK predictions of the chosen blend.
  const samples = labelledScores(older, blendPredictor(older, olderHits.hits, modelOf(chosen)), ['NK', 'LK']);
  for (const aspect of ASPECTS)
    chosen[aspect] = { ...chosen[aspect], calibration: roundKnots(fitCalibration(samples[aspect])) };
  const model = modelOf(chosen);
  const metrics = {
    older: evaluatePredictor(older, olderEval, blendPredictor(older, olderHits.hits, model)),
    window_a: evaluatePredictor(windowA, evalA, blendPredictor(windowA, hitsA.hits, model)),
  };
  const file = {
    ...model,
    provenance: {
      command: 'npm run train:blend',
      commit: gitCommit(root),
      created: new Date().toISOString(),
      homology: {
        tool: `diamond ${(await diamondVersion()) ?? 'unknown'}`,
        recipe: 'blastp --sensitive --evalue 1e-3 --max-target-seqs 60, self hits dropped, best 50 kept',
      },
      donors: DONOR_WORDS[DONOR_POLICY],
      fitted_on: {
        window: WINDOWS.older,
        grid: GRID,
        objective: 'mean f_micro_w over NK, LK and PK per aspect',
      },
      selected_on: { window: WINDOWS.A, shortlist: selection },
      sequences: 'human/human_swissprot_seqs.metastudent-2014-01.fasta.gz',
      metrics_f_micro_w: roundCells(metrics),
    },
  };
  await writeModelFile(out, file);
  process.stdout.write(`wrote ${out}\n${JSON.stringify(model.aspects)}\n`);
}

const round = (value: number): number => Math.round(value * 1e4) / 1e4;

function roundCells(value: Record<string, CellScores>): unknown {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' ? round(v) : v)));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
