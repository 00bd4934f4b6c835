import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMALL_OBO } from '../../libs/domain/testing/evaluation/cafa-test-data';
import { CliUsageError, main, type NamespaceMetrics, parseEvaluateArgs } from './evaluate';

const EXAMPLE = path.resolve(__dirname, '../../../shared/data/fixtures/cafa-evaluator-example');
const at = (name: string): string => path.join(EXAMPLE, name);

interface ExpectedFile {
  results: Record<
    string,
    Record<string, { f_micro: { value: number; tau: number }; fmax: { value: number } }>
  >;
}
const expected = (name: string): ExpectedFile => JSON.parse(readFileSync(at(name), 'utf8')) as ExpectedFile;

describe('evaluate CLI on the evaluator example', () => {
  it('a folder gives file name -> namespace -> metrics, with the recipe defaults', () => {
    const output = main([
      '--obo',
      at('IDPO_disorder_function.obo'),
      '--gt',
      at('ground_truth.tsv'),
      '--pred',
      at('predictions'),
    ]);
    const reference = expected('expected_recipe.json').results;
    expect(Object.keys(output)).toEqual(Object.keys(reference).sort());
    for (const [file, namespaces] of Object.entries(reference)) {
      const ours = (output as Record<string, NamespaceMetrics>)[file]?.['disorder_function'];
      const theirs = namespaces['disorder_function'];
      expect(ours?.f_micro).toBeCloseTo(theirs?.f_micro.value ?? Number.NaN, 9);
      expect(ours?.fmax).toBeCloseTo(theirs?.fmax.value ?? Number.NaN, 9);
      expect(ours?.tau).toBe(theirs?.f_micro.tau);
    }
  });

  it('a file gives namespace -> metrics; --prop max --keep-orphans gives the tool defaults', () => {
    const output = main([
      '--obo',
      at('IDPO_disorder_function.obo'),
      '--gt',
      at('ground_truth.tsv'),
      '--pred',
      at('predictions/pred_3.tsv'),
      '--prop',
      'max',
      '--keep-orphans',
    ]) as NamespaceMetrics;
    const theirs = expected('expected_cli_defaults.json').results['pred_3.tsv']?.['disorder_function'];
    expect(Object.keys(output)).toEqual(['disorder_function']);
    expect(output['disorder_function']?.f_micro).toBeCloseTo(theirs?.f_micro.value ?? Number.NaN, 9);
  });
});

describe('evaluate CLI with IA, TOI, known and a nested folder', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'evaluate-cli-'));
    const files: Record<string, string> = {
      'go.obo': SMALL_OBO,
      'gt.tsv': 'P1\tX:D\nP2\tX:C\n',
      'known.tsv': 'P9\tX:T\n',
      'ia.tsv': 'X:A\t0\nX:B\t2\nX:C\t1\nX:D\t0.5\nX:E\t4\n',
      'toi.txt': 'X:B\nX:C\nX:D\nX:E\n',
      'pred/a.tsv': 'P1\tX:D\t0.8\nP1\tX:C\t0.3\nP2\tX:C\t0.5\nP2\tX:E\t0.9\n',
      'pred/sub/b.tsv': 'P1\tX:D\t0.5\n',
    };
    mkdirSync(path.join(dir, 'pred/sub'), { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports the weighted keys and names nested files with "_"', () => {
    const f = (name: string): string => path.join(dir, name);
    const args = ['--obo', f('go.obo'), '--gt', f('gt.tsv'), '--pred', f('pred'), '--ia', f('ia.tsv')];
    const output = main([...args, '--toi', f('toi.txt'), '--th-step', '0.01']) as Record<
      string,
      NamespaceMetrics
    >;
    expect(Object.keys(output)).toEqual(['a.tsv', 'sub_b.tsv']);
    const mf = output['a.tsv']?.['mf'];
    // Same case as the library spec: f_micro_w = 7/13 at tau 0.31, precision_w 7/19.
    expect(mf?.f_micro_w).toBeCloseTo(7 / 13, 12);
    expect(mf?.precision_w).toBeCloseTo(7 / 19, 12);
    expect(mf?.tau).toBe(0.31);
    expect(Object.keys(mf ?? {}).sort()).toEqual(
      [
        'auprc',
        'auprc_w',
        'best',
        'coverage_w',
        'f_micro',
        'f_micro_w',
        'fmax',
        'fmax_w',
        'precision_w',
        'recall_w',
        'tau',
      ].sort(),
    );
    // A known file without an mf entry is a reference crash condition.
    expect(() => main([...args, '--known', f('known.tsv')])).toThrow(
      expect.objectContaining({ code: 'known_missing_namespace' }),
    );
  });
});

describe('parseEvaluateArgs', () => {
  const required = ['--obo', 'o', '--gt', 'g', '--pred', 'p'];

  it('applies the recipe defaults', () => {
    expect(parseEvaluateArgs(required).options).toEqual({
      propagation: 'fill',
      keepOrphans: false,
      thStep: 0.01,
      maxTerms: null,
      norm: 'cafa',
    });
  });

  it.each<[string, string[]]>([
    ['a missing --pred', ['--obo', 'o', '--gt', 'g']],
    ['an unknown flag', [...required, '--norm', 'pred']],
    ['a positional argument', [...required, 'extra']],
    ['--prop other', [...required, '--prop', 'other']],
    ['--th-step 1', [...required, '--th-step', '1']],
    ['--max-terms 1.5', [...required, '--max-terms', '1.5']],
  ])('rejects %s', (_name, argv) => {
    expect(() => parseEvaluateArgs(argv)).toThrow(CliUsageError);
  });

  it('reads --max-terms and --th-step', () => {
    expect(parseEvaluateArgs([...required, '--max-terms', '3', '--th-step', '0.001']).options).toMatchObject({
      maxTerms: 3,
      thStep: 0.001,
    });
  });
});
