import { createCafaEvaluator, evaluateCafa } from './cafa-evaluator';
import { iaByTerm, parseIaText, readTermSets, toiByTerm } from './cafa-inputs';
import { parseCafaOntology } from './cafa-ontology';
import { evaluateSmall, rowAt, SMALL_OBO } from '../../testing/evaluation/cafa-test-data';

const ontology = parseCafaOntology(SMALL_OBO);
const index = (id: string): number => ontology.indexOfCanonical(id) ?? -1;

describe('IA input (EVALUATOR.md §2.2)', () => {
  it('keeps finite values, zeroes NaN and infinities, ignores alt ids and unknown terms', () => {
    const weights = iaByTerm(
      ontology,
      parseIaText('X:B 2\nX:C nan\nX:D inf\nX:E -1\nX:C2 5\nX:NOPE 3\nX:B 2.5\n'),
    );
    expect([...['X:A', 'X:B', 'X:C', 'X:D', 'X:E'].map((t) => weights[index(t)])]).toEqual([
      0, 2.5, 0, 0, -1,
    ]);
  });

  it.each<[string, string]>([
    ['a header line', 'term\tia\nX:B\t2\n'],
    ['a blank line', 'X:B\t2\n\nX:C\t1\n'],
    ['a trailing empty line', 'X:B\t2\n\n'],
    ['a third column', 'X:B\t2\tx\n'],
    ['a single column', 'X:B\n'],
  ])('%s crashes the reference: ia_malformed_line', (_name, text) => {
    expect(() => parseIaText(text)).toThrow(expect.objectContaining({ code: 'ia_malformed_line' }));
  });

  it('accepts a file ending with one newline', () => {
    expect(parseIaText('X:B\t2\n')).toEqual(new Map([['X:B', 2]]));
  });

  it('negative IA terms are not in W; W is not orphan-filtered', () => {
    const result = evaluateSmall({
      groundTruth: [['P1', 'X:D']],
      predictions: [['P1', 'X:D', 0.5]],
      ia: 'X:A\t1\nX:B\t-2\nX:D\t1\n',
    });
    // W = {A, D}: P1 predicts D and, through propagation, A; both are true.
    expect(rowAt(result, 'mf', 0)).toMatchObject({ tp_w: 2, fp_w: 0, rc_w: 1, n: 1, tp: 2 });
  });
});

describe('TOI input', () => {
  it('maps ids and alt ids to canonical terms; obsolete, unknown and blank lines are ignored', () => {
    const inToi = toiByTerm(ontology, ['X:C2', 'X:T', 'X:GONE']);
    expect(ontology.termIds.filter((_, t) => inToi[t] === 1).sort()).toEqual(['X:C', 'X:T']);
  });

  it('takes the first token of each text line', () => {
    const result = evaluateSmall({
      groundTruth: [['P1', 'X:D']],
      predictions: [['P1', 'X:D', 0.5]],
      toi: 'X:D extra columns\n\nX:T\n',
    });
    expect(rowAt(result, 'mf', 0)).toMatchObject({ n: 1, tp: 1 });
  });
});

describe('ground truth and known input (§2.3)', () => {
  it('first two tokens; header lines, extra columns and obsolete or unknown terms drop out', () => {
    const sets = readTermSets(
      ontology,
      'EntryID\tterm\taspect\nP1\tX:D\tF\nP1\tX:GONE\nP2\tX:C2\nP3\tX:T\n',
      'ground truth',
    );
    const named = sets.map((byProtein) =>
      Object.fromEntries([...byProtein].map(([p, terms]) => [p, [...terms].map((t) => ontology.termIds[t])])),
    );
    expect(named).toEqual([{ P1: ['X:D'], P2: ['X:C'] }, { P3: ['X:T'] }]);
  });

  it('structured pairs are read like text', () => {
    const sets = readTermSets(ontology, [{ protein: 'P1', term: 'X:C2' }], 'ground truth');
    expect([...(sets[0]?.get('P1') ?? [])]).toEqual([index('X:C')]);
  });

  it('a line with a single token throws annotation_malformed_line', () => {
    expect(() => readTermSets(ontology, 'P1\tX:D\nP2\n', 'ground truth')).toThrow(
      expect.objectContaining({ code: 'annotation_malformed_line' }),
    );
  });
});

describe('reference crash conditions become typed errors', () => {
  const base = { ontology: SMALL_OBO, groundTruth: 'P1\tX:D\nP5\tX:T\n' };

  it.each<[string, () => unknown, string]>([
    [
      'every inserted score of a namespace is 0',
      () => evaluateCafa({ ...base, predictions: 'P1\tX:D\t0\nP1\tX:B\t0\n' }),
      'all_zero_scores',
    ],
    [
      'TOI lists no term of a namespace with ground truth',
      () => createCafaEvaluator({ ...base, toi: 'X:D\n' }),
      'toi_empty_namespace',
    ],
    [
      'known terms miss a namespace with ground truth',
      () => createCafaEvaluator({ ...base, known: 'P1\tX:B\n' }),
      'known_missing_namespace',
    ],
    [
      'a kept line with a score float() rejects',
      () => evaluateCafa({ ...base, predictions: 'P1\tX:D\tabc\n' }),
      'invalid_score',
    ],
    [
      'max_terms below 0',
      () => createCafaEvaluator({ ...base, options: { maxTerms: -1 } }),
      'invalid_option',
    ],
  ])('%s', (_name, run, code) => {
    expect(run).toThrow(expect.objectContaining({ code }));
  });

  it('a bad score on a filtered line is never parsed', () => {
    const result = evaluateCafa({
      ...base,
      predictions: 'P9\tX:D\tabc\nAUTHOR x\nMODEL 1\nP1\tX:D\t0.5\nEND\n',
    });
    expect(Object.keys(result.namespaces)).toEqual(['mf']);
  });

  it('structured predictions go through the same filters', () => {
    const result = evaluateCafa({
      ...base,
      predictions: [
        { protein: 'P1', term: 'X:D', score: 0.5 },
        { protein: 'P1', term: 'X:T', score: 0.5 },
      ],
    });
    expect(Object.keys(result.namespaces)).toEqual(['mf']);
  });
});
