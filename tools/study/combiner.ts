// The learned-combiner study (docs/prediction.md, "A learned combiner (study)"): would a gradient-boosted
// classifier over the features the default already computes beat the fitted blend? For every
// (target, aspect) of every category the default scores, each term it emits becomes a row of features
// (its calibrated score, vote share, donor identity, bitscore and e-value, the plain and the informed
// prior, the association, the hits, the term's information content and depth, the category and aspect),
// labelled by whether the term was confirmed. The classifier (tools/study/combiner.py, Debian's
// python3-sklearn) is fitted on the older window (its own scores there out of fold, five folds by
// target) and scores window A; both are evaluated by the service's evaluator beside the default,
// with their calibration. PK targets' known terms are left out of the rows (the evaluator leaves them
// out too). Nothing is fitted on window A; its two settings are compared there.
// Usage: npm run study:combiner [-- --data <shared data dir>] [--python /usr/bin/python3]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  AssociationIndex,
  associationSourceOf,
  type GoAspect,
  type HoldoutCategory,
  informedPrior,
  propagatedTruth,
} from '@svc/domain';
import { defaultBlendModel } from '@svc/go-transfer';
import { calibrationReport } from '../quality/calibration';
import { searchWindow } from '../quality/homology';
import {
  blendedTerms,
  defaultPredictor,
  evaluatePredictor,
  foreignHits,
  labelledScores,
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

const FEATURES = [
  'score',
  'vote_share',
  'identity',
  'informed_prior',
  'prior',
  'association',
  'votes',
  'hits',
  'best_identity',
  'bitscore',
  'neg_log10_evalue',
  'ic',
  'ancestors',
  'category',
  'aspect',
] as const;
const SETTINGS = ['small', 'large'] as const;
const ASPECT_NAME: Record<GoAspect, string> = { F: 'MF', P: 'BP', C: 'CC' };

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

interface Rows {
  /** Per (category, target, aspect): the terms in row order. */
  keys: Map<string, string[]>;
  features: number[];
  labels: number[];
  groups: number[];
}

const keyOf = (category: HoldoutCategory, target: string, aspect: GoAspect): string =>
  `${category}\t${target}\t${aspect}`;

/** The default's terms of every target as feature rows (the shipped model, as the bench scores it). */
async function rowsOf(
  window: QualityWindow,
): Promise<{ rows: Rows; searched: Awaited<ReturnType<typeof searchWindow>> }> {
  const searched = await searchWindow(window);
  const model = defaultBlendModel();
  const association = model.association!;
  const index = new AssociationIndex(associationSourceOf(window.references, window.priors), {
    maxPosting: association.max_posting,
    neighbours: association.neighbours,
  });
  const rows: Rows = { keys: new Map(), features: [], labels: [], groups: [] };
  const targetIds = new Map<string, number>();
  CATEGORIES.forEach((category, c) => {
    const truth = propagatedTruth(
      window.truth[category].map((row) => ({ protein: row.protein, goId: row.term })),
      window.graph,
    );
    for (const [target, aspects] of window.targets[category]) {
      const known = window.references.get(target);
      const scores = known === undefined ? undefined : index.scores(known, target);
      const hits = foreignHits(searched.hits, target);
      const bestIdentity = hits.reduce((best, hit) => Math.max(best, hit.identity), 0);
      if (!targetIds.has(target)) targetIds.set(target, targetIds.size);
      for (const aspect of aspects) {
        const plain = window.priors[aspect];
        let prior = plain;
        const assoc = scores?.[aspect];
        if (known !== undefined && assoc !== undefined) {
          const weight = association.weights[known[aspect].length > 0 ? 'PK' : 'LK'][aspect];
          if (weight > 0) prior = informedPrior(plain, assoc, weight);
        }
        const inAspect = hits.filter(
          (hit) => (window.references.get(hit.reference)?.[aspect].length ?? 0) > 0,
        );
        const own = new Set(category === 'PK' ? (known?.[aspect] ?? []) : []);
        const terms: string[] = [];
        for (const t of blendedTerms(window, searched.hits, model, target, aspect, prior)) {
          if (own.has(t.goId)) continue;
          const frequency = plain.frequency.get(t.goId) ?? 0;
          terms.push(t.goId);
          rows.features.push(
            t.score,
            t.voteShare,
            t.identity,
            prior.frequency.get(t.goId) ?? 0,
            frequency,
            assoc?.get(t.goId) ?? -1,
            t.votes,
            inAspect.length,
            bestIdentity,
            t.donor?.bitscore ?? 0,
            t.donor === null ? 0 : Math.min(300, -Math.log10(Math.max(t.donor.evalue, 1e-300))),
            frequency > 0 ? -Math.log2(frequency) : 20,
            window.ancestorsOf(t.goId).length,
            c,
            ASPECTS.indexOf(aspect),
          );
          rows.labels.push(window.graph.aspect(t.goId) === aspect && truth.label(target, t.goId) ? 1 : 0);
          rows.groups.push(targetIds.get(target)!);
        }
        rows.keys.set(keyOf(category, target, aspect), terms);
      }
    }
  });
  return { rows, searched };
}

/** A predictor reading the classifier's probabilities back in row order. */
function scoredPredictor(rows: Rows, probabilities: Float32Array, category: HoldoutCategory): Predictor {
  const offsets = new Map<string, number>();
  let at = 0;
  for (const [key, terms] of rows.keys) {
    offsets.set(key, at);
    at += terms.length;
  }
  return (target, aspect) => {
    const key = keyOf(category, target, aspect);
    const terms = rows.keys.get(key) ?? [];
    const start = offsets.get(key) ?? 0;
    return terms.map((term, i) => [term, probabilities[start + i]!] as const);
  };
}

async function main(): Promise<void> {
  const root = resolve(__dirname, '..', '..');
  const dataDir = resolve(option('data') ?? join(root, '..', 'shared', 'data'));
  const python = option('python') ?? '/usr/bin/python3';
  const sequences = readSequences(dataDir);
  const dir = mkdtempSync(join(tmpdir(), 'svc-combiner-'));
  try {
    const windows = {} as Record<
      'older' | 'A',
      { window: QualityWindow; rows: Rows; searched: Awaited<ReturnType<typeof searchWindow>> }
    >;
    for (const key of ['older', 'A'] as const) {
      const window = loadWindow(dataDir, WINDOWS[key], sequences);
      const { rows, searched } = await rowsOf(window);
      windows[key] = { window, rows, searched };
      writeFileSync(join(dir, `${key}.f32`), new Float32Array(rows.features));
      writeFileSync(join(dir, `${key}.lab`), new Uint8Array(rows.labels));
      writeFileSync(join(dir, `${key}.grp`), new Int32Array(rows.groups));
      console.log(`${key}: ${rows.labels.length} rows, ${rows.labels.reduce((n, l) => n + l, 0)} confirmed`);
    }
    writeFileSync(join(dir, 'nfeatures'), String(FEATURES.length));
    const started = Date.now();
    process.stdout.write(
      execFileSync(python, [join(__dirname, 'combiner.py'), dir], { encoding: 'utf8', maxBuffer: 1 << 24 }),
    );
    console.log(`fitted in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    for (const key of ['older', 'A'] as const) {
      const { window, rows, searched } = windows[key];
      const evaluators = windowEvaluators(window);
      const base = evaluatePredictor(
        window,
        evaluators,
        defaultPredictor(window, searched.hits, defaultBlendModel()),
      );
      console.log(`\n## window ${window.spec.name}${key === 'older' ? ' (combiner out of fold)' : ''}`);
      console.log(
        `| cat | ns | default | ${SETTINGS.map((s) => `combiner ${s} | minus default`).join(' | ')} |`,
      );
      const results = SETTINGS.map((setting) => {
        const p = new Float32Array(readFileSync(join(dir, `${key}.${setting}.p`)).buffer.slice(0));
        const byCategory = (category: HoldoutCategory) => scoredPredictor(rows, p, category);
        const cells = {} as Record<HoldoutCategory, Record<GoAspect, number>>;
        for (const category of CATEGORIES)
          cells[category] = evaluatePredictor(window, evaluators, byCategory(category), [category])[category];
        const merged: Predictor = (target, aspect) => [
          ...byCategory('NK')(target, aspect),
          ...byCategory('LK')(target, aspect),
        ];
        const calibration = calibrationReport(window, labelledScores(window, merged, ['NK', 'LK']));
        return { cells, calibration };
      });
      for (const category of CATEGORIES)
        for (const aspect of ASPECTS) {
          const d = base[category][aspect];
          console.log(
            `| ${category} | ${ASPECT_NAME[aspect]} | ${d.toFixed(3)} | ${results
              .map(
                (r) =>
                  `${r.cells[category][aspect].toFixed(3)} | ${(r.cells[category][aspect] - d >= 0 ? '+' : '') + (r.cells[category][aspect] - d).toFixed(3)}`,
              )
              .join(' | ')} |`,
          );
        }
      SETTINGS.forEach((setting, i) => {
        const c = results[i]!.calibration;
        console.log(
          `combiner ${setting} calibration (NK+LK): ECE ${c.ece.toFixed(3)}, worst ${c.worst.toFixed(3)}; ${c.perAspect}; ${c.perBand}`,
        );
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
