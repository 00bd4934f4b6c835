// Fits the association of the default blend (docs/prediction.md, "Association"): how much the
// terms of reference proteins that share a query's known terms weigh in its prior, per aspect and per
// mode (LK: nothing known in the aspect; PK: something), on the older human window only. The blend's
// homology parameters and calibration are those of the shipped model, unchanged; window A is only
// reported (npm run bench:quality), never fitted or selected on here.
// Usage: npm run train:association [-- --out <file>] [-- --data <shared data dir>] [-- --donors experimental|all]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  AssociationIndex,
  type AssociationModel,
  associationSourceOf,
  checkBlendModel,
  type GoAspect,
} from '@svc/domain';
import { diamondVersion } from '@svc/inference';
import { searchWindow } from '../quality/homology';
import { associationPredictor, evaluatePredictor, windowEvaluators } from '../quality/methods';
import { ASPECTS, loadWindow, readSequences, WINDOWS } from '../quality/windows';
import { blendVersion, donorsOption, gitCommit, option, writeModelFile } from './model-file';

/** `--donors`: the policy of the base model (stage 1) this adds the association to. */
const DONORS = donorsOption();
const BASE = blendVersion(1, DONORS);
const VERSION = blendVersion(2, DONORS);
/** Chosen on the older window: 300 keeps the match specific and the search about 1 ms per protein. */
const MAX_POSTING = 300;
const NEIGHBOURS = 50;
const GRID = [0, 0.2, 0.4, 0.6, 0.8, 1];

async function main(): Promise<void> {
  const root = resolve(__dirname, '..', '..');
  const dataDir = resolve(option('data') ?? join(root, '..', 'shared', 'data'));
  const blendDir = join(root, 'libs', 'go-transfer', 'src', 'blend');
  const out = resolve(option('out') ?? join(blendDir, `${VERSION}.json`));
  const base = JSON.parse(readFileSync(join(blendDir, `${BASE}.json`), 'utf8')) as Record<string, unknown>;
  const model = checkBlendModel(base);

  const older = loadWindow(dataDir, WINDOWS.older, readSequences(dataDir), DONORS);
  const searched = await searchWindow(older);
  const evaluators = windowEvaluators(older);
  const index = new AssociationIndex(associationSourceOf(older.references, older.priors), {
    maxPosting: MAX_POSTING,
    neighbours: NEIGHBOURS,
  });
  // One weight for every cell per run: a cell's score depends only on its own (mode, aspect) weight,
  // as an LK target has nothing known in the aspect it is scored in and a PK target something.
  const curves: Record<'LK' | 'PK', Record<GoAspect, { weight: number; f: number }[]>> = {
    LK: { F: [], P: [], C: [] },
    PK: { F: [], P: [], C: [] },
  };
  for (const weight of GRID) {
    const uniform = { F: weight, P: weight, C: weight };
    const scores = evaluatePredictor(
      older,
      evaluators,
      associationPredictor(older, searched.hits, model, index, { LK: uniform, PK: uniform }),
      ['LK', 'PK'],
    );
    for (const mode of ['LK', 'PK'] as const)
      for (const aspect of ASPECTS) curves[mode][aspect].push({ weight, f: scores[mode][aspect] });
    console.log(
      `weight ${weight}: ${(['LK', 'PK'] as const)
        .map((m) => `${m} ${ASPECTS.map((a) => scores[m][a].toFixed(3)).join(' ')}`)
        .join('; ')}`,
    );
  }
  const best = (points: { weight: number; f: number }[]): number =>
    points.reduce((a, b) => (b.f > a.f + 1e-9 ? b : a)).weight;
  const association: AssociationModel = {
    max_posting: MAX_POSTING,
    neighbours: NEIGHBOURS,
    weights: {
      LK: { F: best(curves.LK.F), P: best(curves.LK.P), C: best(curves.LK.C) },
      PK: { F: best(curves.PK.F), P: best(curves.PK.P), C: best(curves.PK.C) },
    },
  };
  const written = {
    ...base,
    version: VERSION,
    association,
    provenance: {
      ...(base['provenance'] as Record<string, unknown>),
      association: {
        command: 'npm run train:association',
        commit: gitCommit(root),
        created: new Date().toISOString(),
        diamond: await diamondVersion(),
        fitted_on: `${WINDOWS.older.name}: f_micro_w of the LK cell (mode LK) or PK cell (mode PK) per aspect`,
        grid: GRID,
        curves,
        base_model: BASE,
      },
    },
  };
  await writeModelFile(out, written);
  console.log(`wrote ${out}: weights ${JSON.stringify(association.weights)}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
