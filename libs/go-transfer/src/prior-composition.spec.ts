import { type BlendModel, termPriorOf } from '@svc/domain';
import { composedPriorRow, type PredictionRow } from '@svc/persistence';
import { isFloat32Midpoint, type PriorComposition, setPriorOf, splitPriorRows } from './prior-composition';

const MAP = { raw: [0, 0.2, 1], calibrated: [0, 0.5, 0.9] };
const params = { base: 0.2, slope: 0.7, vote_share: 0.5 };
const MODEL: BlendModel = {
  version: 'test',
  min_score: 0.05,
  donor_evidence: 'experimental',
  aspects: {
    F: { ...params, calibration: MAP },
    P: { ...params, calibration_by_ic: { bounds: [2], maps: [MAP, { raw: [0, 1], calibrated: [0, 0.5] }] } },
    C: params,
  },
};
const IDS = new Map(
  ['GO:1', 'GO:2', 'GO:3', 'GO:4', 'GO:5', 'GO:6', 'GO:7'].map((id, i) => [id, i + 1] as const),
);
const PRIORS = {
  // 100 proteins per aspect: GO:1 90, GO:2 40, GO:3 5, GO:4 1 (F); GO:5 60, GO:6 20 (P); GO:7 30 (C).
  F: termPriorOf(
    new Map([
      ['GO:1', 90],
      ['GO:2', 40],
      ['GO:3', 5],
      ['GO:4', 1],
    ]),
    100,
  ),
  P: termPriorOf(
    new Map([
      ['GO:5', 60],
      ['GO:6', 20],
    ]),
    100,
  ),
  C: termPriorOf(new Map([['GO:7', 30]]), 100),
};
const PRIOR = setPriorOf(PRIORS, MODEL, (id) => IDS.get(id));
const SHAPE = { accession: 'Q1', queryTaxonomyId: '9606', neighbourhood: true };

/** The prior-only rows of Q1 in `aspect` at `weight`, as the blend writes them. */
function priorRows(
  aspect: 'F' | 'P' | 'C',
  weight: number,
  except: string[] = [],
  associationWeight = 0,
): PredictionRow[] {
  return PRIOR.terms
    .filter((t) => t.aspect === aspect && !except.includes(t.goId))
    .flatMap((t) => composedPriorRow(t, { weight, associationWeight }, PRIOR.minScore, SHAPE) ?? []);
}

function homologyRow(goId: string, source: 'homology' | 'known' = 'homology'): PredictionRow {
  return {
    protein_accession: 'Q1',
    go_term_id: IDS.get(goId),
    go_id: goId,
    aspect: 'F',
    distance: 0.25,
    ref_protein_accession: 'R1',
    vote_count: 2,
    k_position: 1,
    features: { source, identity: 0.8 },
  };
}

const composition = (weights: PriorComposition['weights']): PriorComposition => ({ prior: PRIOR, weights });

describe('setPriorOf', () => {
  it('keeps the terms whose calibrated frequency reaches min_score, with their band’s map', () => {
    // F: calibrate(MAP, 0.01) = 0.025 < 0.05, so GO:4 can never make a prior-only row.
    expect(PRIOR.terms.map((t) => t.goId)).toEqual(['GO:1', 'GO:2', 'GO:3', 'GO:5', 'GO:6', 'GO:7']);
    expect(PRIOR.terms.find((t) => t.goId === 'GO:2')).toEqual({
      aspect: 'F',
      goTermId: 2,
      goId: 'GO:2',
      frequency: 0.4,
      termFrequency: 40,
      calibration: MAP,
    });
    // P is term-aware: GO:5 (IC 0.74) takes the generic band's map, GO:6 (IC 2.3) the specific one.
    expect(PRIOR.terms.find((t) => t.goId === 'GO:5')!.calibration).toBe(MAP);
    expect(PRIOR.terms.find((t) => t.goId === 'GO:6')!.calibration).toEqual({
      raw: [0, 1],
      calibrated: [0, 0.5],
    });
    expect(PRIOR.terms.find((t) => t.goId === 'GO:7')!.calibration).toBeNull();
  });

  it('names the prior by a digest of its content', () => {
    expect(setPriorOf(PRIORS, MODEL, (id) => IDS.get(id)).digest).toBe(PRIOR.digest);
    expect(setPriorOf(PRIORS, { ...MODEL, min_score: 0.02 }, (id) => IDS.get(id)).digest).not.toBe(
      PRIOR.digest,
    );
    expect(PRIOR.digest).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('splitPriorRows', () => {
  it('leaves out the prior-only rows the composition gives, and names the terms stored as rows', () => {
    const rows = [
      homologyRow('GO:1'),
      homologyRow('GO:3', 'known'),
      ...priorRows('F', 0.6, ['GO:1', 'GO:3']),
    ];
    expect(rows).toHaveLength(3);
    const split = splitPriorRows(
      rows,
      composition([{ accession: 'Q1', aspect: 'F', weight: 0.6, associationWeight: 0 }]),
    );
    expect(split.rows).toEqual(rows.slice(0, 2));
    expect(split.composed).toEqual([
      {
        ...SHAPE,
        aspect: 'F',
        weight: 0.6,
        associationWeight: 0,
        associatedTerms: [],
        associations: [],
        composedRows: 1,
        storedTerms: [1, 3],
      },
    ]);
  });

  it('composes every aspect of a query without a homolog (weight 0), each apart', () => {
    const rows = [...priorRows('F', 0), ...priorRows('P', 0), ...priorRows('C', 0)];
    const split = splitPriorRows(
      rows,
      composition(
        (['F', 'P', 'C'] as const).map((aspect) => ({
          accession: 'Q1',
          aspect,
          weight: 0,
          associationWeight: 0,
        })),
      ),
    );
    expect(split.rows).toEqual([]);
    expect(split.composed.map((c) => [c.aspect, c.composedRows, c.storedTerms])).toEqual([
      ['F', 3, []],
      ['P', 2, []],
      ['C', 1, []],
    ]);
  });

  it('keeps a prior row that differs from the composition (a re-ranked score) as a row', () => {
    const rows = priorRows('F', 0.3);
    rows[1] = { ...rows[1], distance: Number(rows[1]!.distance) - 0.1 };
    const split = splitPriorRows(
      rows,
      composition([{ accession: 'Q1', aspect: 'F', weight: 0.3, associationWeight: 0 }]),
    );
    expect(split.rows).toEqual([rows[1]]);
    expect(split.composed[0]).toMatchObject({ composedRows: 2, storedTerms: [rows[1].go_term_id] });
  });

  it('stores every row when the composition would give a row the batch does not have', () => {
    const rows = priorRows('F', 0.3, ['GO:2']);
    const split = splitPriorRows(
      rows,
      composition([{ accession: 'Q1', aspect: 'F', weight: 0.3, associationWeight: 0 }]),
    );
    expect(split.rows).toEqual(rows);
    expect(split.composed).toEqual([]);
  });

  it('composes the unassociated terms of a prior informed by association, at its weight', () => {
    // A known query: its prior is the plain frequency scaled by 1 - 0.4 for a term without association.
    const rows = priorRows('F', 0.3, [], 0.4);
    expect(rows.map((r) => r.distance)).not.toEqual(priorRows('F', 0.3).map((r) => r.distance));
    const informed = { accession: 'Q1', aspect: 'F' as const, weight: 0.3, associationWeight: 0.4 };
    const split = splitPriorRows(rows, composition([informed]));
    expect(split.rows).toEqual([]);
    expect(split.composed[0]).toMatchObject({ associationWeight: 0.4, composedRows: rows.length });
    // The same rows read against the plain prior are not the composition's: stored.
    expect(splitPriorRows(rows, composition([{ ...informed, associationWeight: 0 }])).rows).toEqual(rows);
  });

  it('composes an associated term with the association its row names, kept beside the weights', () => {
    const informed = { accession: 'Q1', aspect: 'F' as const, weight: 0.3, associationWeight: 0.4 };
    const go3 = PRIOR.terms.find((t) => t.goId === 'GO:3')!;
    const associatedRow = composedPriorRow(go3, { ...informed, association: 0.7 }, PRIOR.minScore, SHAPE)!;
    expect(associatedRow.features).toMatchObject({ association: 0.7 });
    const rows = [...priorRows('F', 0.3, ['GO:3'], 0.4), associatedRow];
    const split = splitPriorRows(rows, composition([informed]));
    expect(split.rows).toEqual([]);
    expect(split.composed[0]).toMatchObject({ associatedTerms: [3], associations: [0.7], storedTerms: [] });
  });

  it('keeps a lifted or informed prior row as a row, and composes the rest', () => {
    const [lifted, ...rest] = priorRows('F', 0.3);
    const rows = [
      { ...lifted, features: { ...(lifted!.features as object), score_of_descendant: 'GO:3' } },
      ...rest,
    ];
    const split = splitPriorRows(
      rows,
      composition([{ accession: 'Q1', aspect: 'F', weight: 0.3, associationWeight: 0 }]),
    );
    expect(split.rows).toEqual([rows[0]]);
    expect(split.composed[0]).toMatchObject({ composedRows: rest.length, storedTerms: [1] });
  });

  it('leaves alone the pairs it has no weight for (an informed prior) and the rows of other features', () => {
    const rows = [...priorRows('F', 0.3), ...priorRows('P', 0.3)];
    expect(
      splitPriorRows(rows, composition([{ accession: 'Q1', aspect: 'P', weight: 0.3, associationWeight: 0 }]))
        .rows,
    ).toEqual(priorRows('F', 0.3));
    const untaxed = priorRows('C', 0.3).map((r) => ({ ...r, query_taxonomy_id: null }));
    const split = splitPriorRows(
      untaxed,
      composition([{ accession: 'Q1', aspect: 'C', weight: 0.3, associationWeight: 0 }]),
    );
    // The shape is read from the rows: without the taxonomy features the pair composes a null taxon.
    expect(split.rows).toEqual([]);
    expect(split.composed[0]).toMatchObject({ queryTaxonomyId: null, neighbourhood: true });
    const extra = priorRows('C', 0.3).map((r) => ({
      ...r,
      features: { ...(r.features as object), extra: 1 },
    }));
    expect(
      splitPriorRows(
        extra,
        composition([{ accession: 'Q1', aspect: 'C', weight: 0.3, associationWeight: 0 }]),
      ).rows,
    ).toEqual(extra);
  });
});

describe('isFloat32Midpoint', () => {
  it('finds the doubles a real could round either way', () => {
    expect(isFloat32Midpoint(1 + 2 ** -24)).toBe(true);
    expect(isFloat32Midpoint(0.5 - 2 ** -26)).toBe(true);
    expect(isFloat32Midpoint(1 + 2 ** -25)).toBe(false);
    expect(isFloat32Midpoint(Math.fround(0.3))).toBe(false);
    expect(isFloat32Midpoint(0.1)).toBe(false);
    expect(isFloat32Midpoint(0)).toBe(false);
  });
});
