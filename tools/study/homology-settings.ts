// The homology settings study (docs/prediction.md, "Homology settings"): which DIAMOND sensitivity
// and e-value cut, and which donors (experimental only, or every evidence code, the service's
// `donor_evidence: all`), the default should search with. Each candidate is scored as the service
// scores it (the shipped blend fitted for its donor rule, association and calibration included, all
// fitted on `--sensitive --evalue 1e-3` hits) by the service's CAFA evaluator, on both human windows of
// ../shared/data, beside the naive and DIAMOND-kNN baselines (experimental donors, the shipped
// settings).
// The protocol: among the candidates of the default's donor rule (experimental: the rule the blend
// is fitted and calibrated with, and the service's default), rank on the older window (mean
// f_micro_w of the six NK and LK cells), keep those within 0.005 of the best there, select among them
// on window A; report both. Every evidence code as donors is measured beside them (what electronic
// donors add, `donor_evidence: all`, with the blend fitted for that rule), not selected: the default
// donor rule stays experimental.

// Usage: npm run study:homology [-- --data <shared data dir>] [--only <candidate name>]
import { join, resolve } from 'node:path';
import type { GoAspect, HoldoutCategory } from '@svc/domain';
import { DEFAULT_DIAMOND_SEARCH, diamondVersion, type DiamondSearchOptions } from '@svc/inference';
import { blendModelFor, defaultBlendModel } from '@svc/go-transfer';
import { searchWindow } from '../quality/homology';
import {
  type CellScores,
  defaultPredictor,
  evaluatePredictor,
  knnPredictor,
  naivePredictor,
  windowEvaluators,
} from '../quality/methods';
import { ASPECTS, CATEGORIES, loadWindow, readSequences, WINDOWS } from '../quality/windows';

interface Candidate {
  name: string;
  sensitivity: DiamondSearchOptions['sensitivity'];
  evalue: number;
  donors: 'experimental' | 'all';
}

/** The shipped settings first: the reference every other candidate is set against. */
const CANDIDATES: readonly Candidate[] = [
  {
    name: 'sensitive, 1e-3, experimental (shipped)',
    sensitivity: 'sensitive',
    evalue: 1e-3,
    donors: 'experimental',
  },
  { name: 'fast, 1e-3, experimental', sensitivity: 'fast', evalue: 1e-3, donors: 'experimental' },
  {
    name: 'more-sensitive, 1e-3, experimental',
    sensitivity: 'more-sensitive',
    evalue: 1e-3,
    donors: 'experimental',
  },
  {
    name: 'very-sensitive, 1e-3, experimental',
    sensitivity: 'very-sensitive',
    evalue: 1e-3,
    donors: 'experimental',
  },
  { name: 'sensitive, 1e-5, experimental', sensitivity: 'sensitive', evalue: 1e-5, donors: 'experimental' },
  { name: 'sensitive, 1e-1, experimental', sensitivity: 'sensitive', evalue: 1e-1, donors: 'experimental' },
  { name: 'sensitive, 1e-3, all evidence', sensitivity: 'sensitive', evalue: 1e-3, donors: 'all' },
];

/** Candidates within this much of the best mean NK/LK f_micro_w on the older window go on to window A. */
const KEEP_WITHIN = 0.005;
const ASPECT_NAME: Record<GoAspect, string> = { F: 'MF', P: 'BP', C: 'CC' };
const CELLS: readonly [HoldoutCategory, GoAspect][] = CATEGORIES.flatMap((c) =>
  ASPECTS.map((a) => [c, a] as [HoldoutCategory, GoAspect]),
);

interface Outcome {
  candidate: Candidate;
  scores: CellScores;
  /** Mean f_micro_w of the six NK and LK cells: what the protocol ranks by. */
  nkLk: number;
  /** The smallest NK/LK margin over the better baseline, and the smallest PK margin over naive. */
  margin: number;
  pkMargin: number;
  searchPerThousand: number;
  donors: number;
}

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const f3 = (value: number): string => value.toFixed(3);
const signed = (value: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;

async function studyWindow(
  dataDir: string,
  key: 'older' | 'A',
  sequences: Map<string, string>,
  candidates: readonly Candidate[],
): Promise<Outcome[]> {
  const windows = {
    experimental: loadWindow(dataDir, WINDOWS[key], sequences, 'experimental'),
    all: candidates.some((c) => c.donors === 'all')
      ? loadWindow(dataDir, WINDOWS[key], sequences, 'all')
      : null,
  };
  const base = windows.experimental;
  const evaluators = windowEvaluators(base);
  // The baselines as bench:quality has them: experimental donors, the shipped search.
  const shipped = await searchWindow(base);
  const naive = evaluatePredictor(base, evaluators, naivePredictor(base));
  const knn = evaluatePredictor(base, evaluators, knnPredictor(base, shipped.hits));
  const outcomes: Outcome[] = [];
  for (const candidate of candidates) {
    const window = candidate.donors === 'all' ? windows.all! : base;
    const isShipped =
      candidate.donors === 'experimental' &&
      candidate.sensitivity === DEFAULT_DIAMOND_SEARCH.sensitivity &&
      candidate.evalue === DEFAULT_DIAMOND_SEARCH.evalue;
    const searched = isShipped
      ? shipped
      : await searchWindow(window, undefined, {
          sensitivity: candidate.sensitivity,
          evalue: candidate.evalue,
        });
    // The targets, truth, known terms and IA are the experimental window's whatever the donors.
    // Each donor rule scores with the blend fitted for it (the service's choice, blendModelFor).
    const model = blendModelFor(candidate.donors);
    const scores = evaluatePredictor(base, evaluators, defaultPredictor(window, searched.hits, model));
    let nkLk = 0;
    let margin = Infinity;
    let pkMargin = Infinity;
    for (const [category, aspect] of CELLS) {
      const ours = scores[category][aspect];
      if (category === 'PK') pkMargin = Math.min(pkMargin, ours - naive[category][aspect]);
      else {
        nkLk += ours / 6;
        margin = Math.min(margin, ours - Math.max(naive[category][aspect], knn[category][aspect]));
      }
    }
    outcomes.push({
      candidate,
      scores,
      nkLk,
      margin,
      pkMargin,
      searchPerThousand: (searched.searchSeconds / searched.queries) * 1000,
      donors: window.references.size,
    });
    process.stderr.write(`${key}: ${candidate.name}: NK/LK mean ${f3(nkLk)}\n`);
  }
  console.log(`\n## window ${base.spec.name}${key === 'older' ? ' [ranked on]' : ' [selected on]'}`);
  console.log(
    `| candidate | donors | ${CELLS.map(([c, a]) => `${c} ${ASPECT_NAME[a]}`).join(' | ')} | NK/LK mean | min NK/LK margin | min PK margin | search s / 1,000 |`,
  );
  console.log(`|${' --- |'.repeat(CELLS.length + 6)}`);
  const row = (name: string, donors: string, scores: CellScores, rest: string): void =>
    console.log(`| ${name} | ${donors} | ${CELLS.map(([c, a]) => f3(scores[c][a])).join(' | ')} | ${rest} |`);
  row('naive', String(base.references.size), naive, ' | | | ');
  row(
    'diamond-knn',
    String(base.references.size),
    knn,
    ` | | | ${f3((shipped.searchSeconds / shipped.queries) * 1000)}`,
  );
  for (const o of outcomes)
    row(
      o.candidate.name,
      String(o.donors),
      o.scores,
      `${f3(o.nkLk)} | ${signed(o.margin)} | ${signed(o.pkMargin)} | ${o.searchPerThousand.toFixed(1)}`,
    );
  return outcomes;
}

async function main(): Promise<void> {
  const root = resolve(__dirname, '..', '..');
  const dataDir = resolve(option('data') ?? join(root, '..', 'shared', 'data'));
  const version = await diamondVersion();
  if (version === null) throw new Error('DIAMOND is not installed: apt-get install diamond-aligner');
  const only = option('only');
  const candidates = only === undefined ? CANDIDATES : CANDIDATES.filter((c) => c.name === only);
  if (candidates.length === 0) throw new Error(`no candidate is named ${only}`);
  console.log(`# study:homology: DIAMOND ${version}; model ${defaultBlendModel().version}`);
  const sequences = readSequences(dataDir);
  const older = await studyWindow(dataDir, 'older', sequences, candidates);
  const eligible = older.filter((o) => o.candidate.donors === 'experimental');
  const best = Math.max(...eligible.map((o) => o.nkLk));
  const kept = new Set(eligible.filter((o) => o.nkLk >= best - KEEP_WITHIN).map((o) => o.candidate.name));
  console.log(
    `\nkept for window A (within ${KEEP_WITHIN} of the best older-window NK/LK mean): ${[...kept].join('; ')}`,
  );
  const a = await studyWindow(dataDir, 'A', sequences, candidates);
  const selected = a.filter((o) => kept.has(o.candidate.name)).reduce((x, y) => (y.nkLk > x.nkLk ? y : x));
  console.log(
    `\nselected on window A: ${selected.candidate.name} (NK/LK mean ${f3(selected.nkLk)} on A, ` +
      `${f3(older.find((o) => o.candidate.name === selected.candidate.name)!.nkLk)} on the older window); ` +
      `candidates not kept on the older window are shown on A but cannot be selected.`,
  );
  // What every evidence code as donors adds to the shipped search, on each window (measured, not selected).
  const shipped = CANDIDATES[0]!.name;
  for (const [name, outcomes] of [
    ['older', older],
    ['A', a],
  ] as const) {
    const base = outcomes.find((o) => o.candidate.name === shipped);
    for (const o of outcomes.filter((x) => x.candidate.donors === 'all' && base !== undefined))
      console.log(
        `${name}: ${o.candidate.name} against the shipped search: NK/LK mean ${signed(o.nkLk - base!.nkLk)}, ` +
          `cells ${CELLS.map(([c, asp]) => `${c} ${ASPECT_NAME[asp]} ${signed(o.scores[c][asp] - base!.scores[c][asp])}`).join(', ')}`,
      );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
