// Chooses the k-mer embedding recipe by measurement: nearest-neighbour GO transfer on the mini
// temporal holdout (and, with --human, on the whole human set), protein-centric Fmax per aspect.
//
//   node -r ./tools/register.js tools/study/kmer-recipe-study.ts [--grid] [--human] [--data DIR]
//
// Default: the naive baseline and one-factor-at-a-time variations around kmer-v1. --grid adds the
// full factorial grid (top rows and the mean of each factor level, about 5 minutes); --human
// re-scores candidate recipes on the whole human set: 1,803 target-aspect pairs against 11,000-14,000
// references per aspect (about 15 minutes on one core). Results: docs/embeddings-kmer.md.
import { embedKmerBatch, KmerSpectrumSpec } from '@svc/domain';
import {
  bootstrapMeanFmax,
  CurvesByAspect,
  fmaxByAspect,
  knnCurves,
  naiveCurves,
  packVectors,
  Scores,
  similarityTable,
} from './go-transfer-eval';
import {
  DEFAULT,
  describe,
  gridVariants,
  humanCandidates,
  oneFactorVariants,
  Variant,
} from './kmer-study-variants';
import { ASPECTS, Holdout, loadHumanHoldout, loadMiniHoldout } from './study-data';

interface Result {
  label: string;
  /** Scores at PRIMARY_NEIGHBOURS neighbours with max-similarity scoring. */
  scores: Scores;
  curves: CurvesByAspect;
  /** Mean Fmax at each of OTHER_NEIGHBOURS, max-similarity scoring. */
  meanAt: Map<number, number>;
  seconds: number;
}

const args = process.argv.slice(2);
const dataDir = args.includes('--data') ? args[args.indexOf('--data') + 1]! : '/work/shared/data';
const PRIMARY_NEIGHBOURS = 1;
const OTHER_NEIGHBOURS = [5, 10];

function evaluate(holdout: Holdout, variant: Variant): Result {
  const started = process.hrtime.bigint();
  const sequences = holdout.proteins.map((p) =>
    variant.maxLength ? p.sequence.slice(0, variant.maxLength) : p.sequence,
  );
  const vectors = packVectors(embedKmerBatch({ sequences, spec: variant.spec }), variant.spec.dimension);
  const table = similarityTable({ holdout, vectors, dimension: variant.spec.dimension });
  const curvesAt = (neighbours: number): CurvesByAspect =>
    knnCurves({ holdout, table, neighbours, scoring: variant.scoring ?? 'max' });
  const curves = curvesAt(variant.neighbours ?? PRIMARY_NEIGHBOURS);
  const meanAt = new Map(OTHER_NEIGHBOURS.map((n) => [n, fmaxByAspect(curvesAt(n)).mean]));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { label: variant.label, scores: fmaxByAspect(curves), curves, meanAt, seconds };
}

const pct = (value: number): string => (Number.isNaN(value) ? '' : (100 * value).toFixed(1));

function printTable(title: string, rows: Result[], reference?: Result): void {
  const others = OTHER_NEIGHBOURS.map((n) => `mean, ${n} nn`);
  console.log(`\n### ${title}\n`);
  console.log(`| variant | F | P | C | mean | ± sd | > default | ${others.join(' | ')} |`);
  console.log(`|---|---:|---:|---:|---:|---:|---:|${others.map(() => '---:|').join('')}`);
  for (const row of rows) {
    const boot = bootstrapMeanFmax({ curves: row.curves, baseline: reference?.curves });
    const share = boot.winShare === null ? '' : `${Math.round(100 * boot.winShare)}%`;
    const { F, P, C, mean } = row.scores;
    const more = OTHER_NEIGHBOURS.map((n) => pct(row.meanAt.get(n) ?? Number.NaN));
    console.log(
      `| ${row.label} | ${pct(F)} | ${pct(P)} | ${pct(C)} | ${pct(mean)} | ${pct(boot.sd)} | ${share} | ${more.join(' | ')} |`,
    );
  }
}

function printFactorMeans(results: { variant: Variant; result: Result }[]): void {
  const factors: [string, (spec: KmerSpectrumSpec) => string][] = [
    ['alphabet', (s) => s.alphabet.name],
    ['k values', (s) => s.orders.join('+')],
    ['dimension', (s) => String(s.dimension)],
    ['term frequency', (s) => `${s.termFrequency}${s.centerOnBackground ? ', centred' : ''}`],
    ['weight', (s) => s.weighting],
    ['hashing', (s) => (s.signedHashing ? 'signed' : 'unsigned')],
    ['orders (multi-k only)', (s) => (s.orders.length > 1 ? (s.balanceOrders ? 'balanced' : 'summed') : '')],
  ];
  console.log('\n### Grid: mean of the mean Fmax over all recipes sharing a factor level\n');
  console.log('| factor | level | recipes | mean Fmax | best |');
  console.log('|---|---|---:|---:|---:|');
  for (const [factor, level] of factors) {
    const groups = new Map<string, number[]>();
    for (const { variant, result } of results) {
      const key = level(variant.spec);
      if (key === '') continue;
      groups.set(key, [...(groups.get(key) ?? []), result.scores.mean]);
    }
    for (const [key, values] of groups) {
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      console.log(`| ${factor} | ${key} | ${values.length} | ${pct(mean)} | ${pct(Math.max(...values))} |`);
    }
  }
}

function summarise(holdout: Holdout): void {
  const refs = ASPECTS.map((a) => `${a} ${holdout.references[a].length}`).join(', ');
  const targets = ASPECTS.map((a) => `${a} ${holdout.targets[a].length}`).join(', ');
  console.log(`\n## ${holdout.name}: references ${refs}; targets ${targets}`);
}

function naiveResult(holdout: Holdout): Result {
  const curves = naiveCurves(holdout);
  const scores = fmaxByAspect(curves);
  const meanAt = new Map(OTHER_NEIGHBOURS.map((n) => [n, scores.mean]));
  return { label: 'naive (term frequency among references)', scores, curves, meanAt, seconds: 0 };
}

function main(): void {
  const mini = loadMiniHoldout(`${dataDir}/mini`);
  summarise(mini);
  console.log(`default kmer-v1: ${describe(DEFAULT)}; ${PRIMARY_NEIGHBOURS} neighbour unless stated`);
  const reference = evaluate(mini, { label: `kmer-v1 (${describe(DEFAULT)})`, spec: DEFAULT });
  printTable('Baselines', [naiveResult(mini), reference], reference);
  for (const { title, variants } of oneFactorVariants()) {
    printTable(
      title,
      variants.map((v) => evaluate(mini, v)),
      reference,
    );
  }

  if (args.includes('--grid')) {
    const started = Date.now();
    const results = gridVariants().map((variant) => ({ variant, result: evaluate(mini, variant) }));
    const ranked = [...results].sort((a, b) => b.result.scores.mean - a.result.scores.mean);
    printTable(
      `Grid: top 25 of ${results.length} recipes (${((Date.now() - started) / 1000).toFixed(0)} s)`,
      ranked.slice(0, 25).map((r) => r.result),
      reference,
    );
    printFactorMeans(results);
  }

  if (args.includes('--human')) {
    const human = loadHumanHoldout(dataDir);
    summarise(human);
    const candidates = humanCandidates();
    const results = candidates.map((v) => {
      const result = evaluate(human, v);
      console.error(`${v.label}: ${pct(result.scores.mean)} (${result.seconds.toFixed(0)} s)`);
      return result;
    });
    printTable('Human holdout', [naiveResult(human), ...results], results[0]);
  }
}

main();
