// The association fallback study (docs/prediction.md, "Association"): the association matches a
// known protein only on terms carried by at most `max_posting` (300) reference proteins, so about half
// of the LK targets of both human windows (and a tenth of the PK targets in MF and CC), known only by
// generic terms, get the plain prior. This asks whether matching those on commoner terms (a second
// index, with a larger `max_posting` and more neighbours, asked only when the first matches nothing in
// the aspect) would raise f_micro_w. It is scored as the default scores (the shipped blend,
// association weights and calibration) by the service's evaluator on the LK and PK cells of both
// windows; the lines give each candidate's difference from the default, and how many targets the
// first index leaves without an association.
// Usage: npm run study:association-fallback [-- --data <shared data dir>]
import { join, resolve } from 'node:path';
import {
  AssociationIndex,
  associationSourceOf,
  type GoAspect,
  type HoldoutCategory,
  informedPrior,
} from '@svc/domain';
import { defaultBlendModel } from '@svc/go-transfer';
import { searchWindow } from '../quality/homology';
import {
  blendedTerms,
  defaultPredictor,
  evaluatePredictor,
  type Predictor,
  windowEvaluators,
} from '../quality/methods';
import { ASPECTS, loadWindow, readSequences, WINDOWS } from '../quality/windows';

const CANDIDATES = [
  { maxPosting: 3_000, neighbours: 50 },
  { maxPosting: 3_000, neighbours: 200 },
  { maxPosting: Number.MAX_SAFE_INTEGER, neighbours: 200 },
] as const;
const CELLS: readonly HoldoutCategory[] = ['LK', 'PK'];

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main(): Promise<void> {
  const root = resolve(__dirname, '..', '..');
  const dataDir = resolve(option('data') ?? join(root, '..', 'shared', 'data'));
  const sequences = readSequences(dataDir);
  const model = defaultBlendModel();
  const association = model.association!;
  for (const key of ['older', 'A'] as const) {
    const window = loadWindow(dataDir, WINDOWS[key], sequences);
    const searched = await searchWindow(window);
    const evaluators = windowEvaluators(window);
    const source = associationSourceOf(window.references, window.priors);
    const primary = new AssociationIndex(source, {
      maxPosting: association.max_posting,
      neighbours: association.neighbours,
    });
    const unmatched = CELLS.map((category) => {
      const counts = ASPECTS.map((aspect) => {
        let targets = 0;
        let none = 0;
        for (const [target, aspects] of window.targets[category]) {
          const known = window.references.get(target);
          if (known === undefined || !aspects.has(aspect)) continue;
          targets++;
          if (primary.scores(known, target)[aspect] === undefined) none++;
        }
        return `${aspect} ${none}/${targets}`;
      });
      return `${category} ${counts.join(' ')}`;
    });
    console.log(`\n## window ${window.spec.name}`);
    console.log(`targets the association leaves on the plain prior: ${unmatched.join('; ')}`);
    const base = evaluatePredictor(window, evaluators, defaultPredictor(window, searched.hits, model), CELLS);
    console.log(
      `default: ${CELLS.map((c) => `${c} ${ASPECTS.map((a) => `${a} ${base[c][a].toFixed(3)}`).join(' ')}`).join('; ')}`,
    );
    for (const candidate of CANDIDATES) {
      const fallback = new AssociationIndex(source, candidate);
      const predictor: Predictor = (target, aspect: GoAspect) => {
        const known = window.references.get(target);
        let prior = window.priors[aspect];
        if (known !== undefined) {
          const weight = association.weights[known[aspect].length > 0 ? 'PK' : 'LK'][aspect];
          const scores = primary.scores(known, target)[aspect] ?? fallback.scores(known, target)[aspect];
          if (weight > 0 && scores !== undefined) prior = informedPrior(prior, scores, weight);
        }
        return blendedTerms(window, searched.hits, model, target, aspect, prior).map(
          (term) => [term.goId, term.score] as const,
        );
      };
      const got = evaluatePredictor(window, evaluators, predictor, CELLS);
      const name =
        candidate.maxPosting === Number.MAX_SAFE_INTEGER
          ? 'every term'
          : `max_posting ${candidate.maxPosting}`;
      console.log(
        `fallback on ${name}, ${candidate.neighbours} neighbours, minus the default: ${CELLS.map(
          (c) => `${c} ${ASPECTS.map((a) => `${a} ${(got[c][a] - base[c][a]).toFixed(3)}`).join(' ')}`,
        ).join('; ')}`,
      );
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
