import { parseObo } from '@svc/domain';
import type { GroundTruthCategory, GroundTruthRow } from '@svc/persistence';
import {
  CategoryEvaluation,
  evaluatePredictionSet,
  EvaluationReads,
  type EvaluationCategory,
} from './evaluate-prediction-set';

// The evaluation use case over plain objects: which rows reach which category, the best row per
// (protein, term), the PK known terms, the scorer and the columns it asks for. The evaluator itself is
// checked against the reference algorithm in libs/domain.

const OBO = `format-version: 1.2
data-version: releases/test

[Term]
id: GO:0000001
name: root
namespace: molecular_function

[Term]
id: GO:0000002
name: child a
namespace: molecular_function
is_a: GO:0000001 ! root

[Term]
id: GO:0000003
name: child b
namespace: molecular_function
is_a: GO:0000001 ! root
`;

const truth = (category: GroundTruthCategory, protein: string, goId: string): GroundTruthRow => ({
  category,
  protein_accession: protein,
  go_id: goId,
  aspect: 'F',
});

// NK: A gains child a. LK: B gains child b. PK: D knew child a and gains child b. C is in no category.
const GROUND_TRUTH: GroundTruthRow[] = [
  truth('NK', 'A', 'GO:0000002'),
  truth('LK', 'B', 'GO:0000003'),
  truth('PK', 'D', 'GO:0000003'),
  truth('KNOWN', 'D', 'GO:0000002'),
];

const row = (protein: string, goId: string, score: number): Record<string, unknown> => ({
  protein_accession: protein,
  go_id: goId,
  distance: 1 - score,
});

const ROWS = [
  row('A', 'GO:0000002', 0.8), // the best row of (A, child a): its score counts, not the later one's
  row('A', 'GO:0000002', 0.5),
  row('A', 'GO:0000003', 0.6),
  row('B', 'GO:0000003', 0.6),
  row('C', 'GO:0000002', 0.9), // a protein of no category: read, then left out
  row('D', 'GO:0000003', 0.7),
];

function reads(chunkSize: number, truthRows = GROUND_TRUTH) {
  const asked: { columns: string | undefined; predictionsOnly?: boolean }[] = [];
  const repos: EvaluationReads = {
    ontologies: { oboDocument: () => Promise.resolve(parseObo(OBO)) },
    evaluations: {
      groundTruth: (_id: string, category: GroundTruthCategory) =>
        Promise.resolve(truthRows.filter((t) => t.category === category)),
    },
    predictionSets: {
      async *streamRows(
        _id: string,
        _filters: object,
        _chunk?: number,
        columns?: 'export' | 'score',
        predictionsOnly?: boolean,
      ) {
        asked.push({ columns, predictionsOnly });
        for (let i = 0; i < ROWS.length; i += chunkSize) yield ROWS.slice(i, i + chunkSize);
      },
    },
  };
  return { repos, asked };
}

const settings = {
  evaluationSetId: 'e',
  ontologySnapshotId: 'o',
  predictionSetId: 'p',
  ia: null,
  toi: null,
  thStep: 0.01,
  maxTerms: null,
};

describe('evaluatePredictionSet', () => {
  it('scores each category on its own proteins with the best row per term', async () => {
    const seen: CategoryEvaluation[] = [];
    const { repos, asked } = reads(2);
    const metrics = await evaluatePredictionSet({
      ...settings,
      repos,
      weights: null,
      onCategory: async (result) => void seen.push(result),
    });
    expect(Object.keys(metrics)).toEqual(['NK', 'LK', 'PK']);
    // A's child a counts at 0.8, its best row, above child b (0.6): exact from threshold 0.61 to 0.8.
    // At 0.5 (its other row) it would rank under child b, and no threshold would be exact.
    expect(metrics['NK']!['MFO']).toMatchObject({ fmax: 1, threshold: 0.61, n: 1 });
    expect(metrics['LK']!['MFO']).toMatchObject({ fmax: 1, threshold: 0.01, n: 1 });
    // D's known child a is no prediction to be found: child b alone is exact at every threshold.
    expect(metrics['PK']!['MFO']).toMatchObject({ fmax: 1, threshold: 0.01, n: 1 });
    const byCategory = new Map(seen.map((s) => [s.category, s]));
    expect(byCategory.get('NK')!.predictions).toEqual([
      { protein: 'A', term: 'GO:0000002', score: 0.8 },
      { protein: 'A', term: 'GO:0000003', score: expect.closeTo(0.6, 9) },
    ]);
    // C's rows reach no category; only PK carries the known terms, of its own proteins.
    for (const s of seen) expect(s.predictions.some((p) => p.protein === 'C')).toBe(false);
    expect(byCategory.get('NK')!.known).toBeNull();
    expect(byCategory.get('PK')!.known).toEqual([{ protein: 'D', term: 'GO:0000002' }]);
    // Without a scoring config or scorer, only the scores are read, and the rows are read once.
    expect(asked).toEqual([{ columns: 'score', predictionsOnly: true }]);
  });

  it('gives the same metrics whatever the chunks the rows arrive in', async () => {
    const whole = await evaluatePredictionSet({
      ...settings,
      repos: reads(ROWS.length).repos,
      weights: null,
    });
    const single = await evaluatePredictionSet({ ...settings, repos: reads(1).repos, weights: null });
    expect(single).toEqual(whole);
  });

  it('skips a category without ground truth', async () => {
    const { repos } = reads(
      3,
      GROUND_TRUTH.filter((t) => t.category !== 'LK'),
    );
    const metrics = await evaluatePredictionSet({ ...settings, repos, weights: null });
    expect(Object.keys(metrics)).toEqual(['NK', 'PK']);
  });

  it("uses a category's scorer and reads the export columns for it", async () => {
    const { repos, asked } = reads(6);
    // NK's scorer puts A's wrong term (child b) above its right one: no threshold is exact any more
    // (the root is not counted: F 2/3 at best, both terms kept).
    const inverse = (r: Record<string, unknown>) => (r['go_id'] === 'GO:0000003' ? 0.9 : 0.1);
    const metrics = await evaluatePredictionSet({
      ...settings,
      repos,
      weights: null,
      scorerFor: (category: EvaluationCategory) => (category === 'NK' ? inverse : null),
    });
    expect(asked).toEqual([{ columns: 'export', predictionsOnly: true }]);
    expect(metrics['NK']!['MFO']!['fmax']).toBeCloseTo(2 / 3, 9);
    expect(metrics['NK']!['MFO']!['threshold']).toBe(0.01);
    expect(metrics['LK']!['MFO']).toMatchObject({ fmax: 1, threshold: 0.01 });
  });
});
