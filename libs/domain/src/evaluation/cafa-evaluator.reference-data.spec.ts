import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createCafaEvaluator } from './cafa-evaluator';
import type { CafaBestRow, CafaNamespaceResult, CafaOptions } from './cafa-types';

// The shared data folder sits next to the repository checkout, here and in CI.
const EXAMPLE = path.resolve(__dirname, '../../../../../shared/data/fixtures/cafa-evaluator-example');

const read = (name: string): string => readFileSync(path.join(EXAMPLE, name), 'utf8');

interface ExpectedBest {
  cov_max: number;
  coverage: number;
  n: number;
  precision: number;
  recall: number;
  tau: number;
  value: number;
  mi?: number;
  ru?: number;
}

type ExpectedNamespace = Record<'f_micro' | 'fmax' | 'smin', ExpectedBest> & { spec: Record<string, number> };

interface Expected {
  params: { prop: 'fill' | 'max'; no_orphans: boolean; th_step: number; max_terms: number | null };
  results: Record<string, Record<string, ExpectedNamespace>>;
}

const TOLERANCE = 1e-9;

function expectClose(actual: number | undefined, expected: number, label: string): void {
  if (actual === undefined || !(Math.abs(actual - expected) <= TOLERANCE)) {
    throw new Error(`${label}: expected ${expected}, got ${String(actual)}`);
  }
}

function compareBest(
  actual: CafaBestRow & { mi?: number; ru?: number },
  expected: ExpectedBest,
  label: string,
) {
  // Every key of the reference row is compared, so a key added to the fixture fails here until handled.
  for (const [key, value] of Object.entries(expected)) {
    expectClose((actual as unknown as Record<string, number | undefined>)[key], value, `${label}.${key}`);
  }
}

function compareNamespace(
  actual: CafaNamespaceResult | undefined,
  expected: ExpectedNamespace,
  label: string,
) {
  if (actual === undefined) throw new Error(`${label}: namespace missing`);
  compareBest(actual.best.f_micro, expected.f_micro, `${label}.f_micro`);
  compareBest(actual.best.fmax, expected.fmax, `${label}.fmax`);
  compareBest(actual.best.smin, expected.smin, `${label}.smin`);
  for (const [key, value] of Object.entries(expected.spec)) {
    expectClose(
      (actual as unknown as Record<string, number | undefined>)[key],
      value,
      `${label}.spec.${key}`,
    );
  }
}

describe.each([
  ['expected_recipe.json', 'recipe (fill, orphans removed)'],
  ['expected_cli_defaults.json', 'tool defaults (max, orphans kept)'],
])('the evaluator example against %s, %s', (file) => {
  const expected = JSON.parse(read(file)) as Expected;
  const options: Partial<CafaOptions> = {
    propagation: expected.params.prop,
    keepOrphans: !expected.params.no_orphans,
    thStep: expected.params.th_step,
    maxTerms: expected.params.max_terms,
  };
  const evaluator = createCafaEvaluator({
    ontology: read('IDPO_disorder_function.obo'),
    groundTruth: read('ground_truth.tsv'),
    options,
  });
  const files = readdirSync(path.join(EXAMPLE, 'predictions')).sort();

  it('covers the same prediction files as the reference', () => {
    expect(files).toEqual(Object.keys(expected.results).sort());
  });

  it.each(files)('%s: every reported key within 1e-9', (name) => {
    const result = evaluator.evaluate(read(path.join('predictions', name)));
    const expectedFile = expected.results[name] ?? {};
    expect(Object.keys(result.namespaces).sort()).toEqual(Object.keys(expectedFile).sort());
    for (const [ns, expectedNs] of Object.entries(expectedFile)) {
      compareNamespace(result.namespaces[ns], expectedNs, `${name}.${ns}`);
    }
    // Without IA the weighted keys are absent.
    expect(result.namespaces['disorder_function']?.f_micro_w).toBeUndefined();
  });
});
