import {
  decodePredictionColumns,
  encodePredictionColumns,
  PREDICTION_ROW_COLUMN_NAMES,
  PredictionRow,
} from './prediction-columns';

const rows: PredictionRow[] = [
  {
    protein_accession: 'P12345',
    go_term_id: 7,
    go_id: 'GO:0005515',
    aspect: 'F',
    distance: 0.25,
    ref_protein_accession: 'Q99999',
    qualifier: 'enables\tsomething "quoted"',
    vote_count: 2,
    k_position: 1,
    neighbor_vote_fraction: 0.00005,
    features: { identity: 0.9, self_hit: true },
  },
  {
    protein_accession: 'P12346',
    go_term_id: 8,
    go_id: 'GO:0008150',
    aspect: 'P',
    distance: 0,
    neighbor_vote_fraction: null,
  },
];

describe('columnar prediction write messages', () => {
  it('round-trips rows column by column, missing values as null and features as JSON text', () => {
    const decoded = decodePredictionColumns(PREDICTION_ROW_COLUMN_NAMES, encodePredictionColumns(rows));
    expect('values' in decoded).toBe(true);
    const values = (decoded as { values: unknown[][] }).values;
    const column = (name: string) => values[PREDICTION_ROW_COLUMN_NAMES.indexOf(name)]!;
    expect(column('protein_accession')).toEqual(['P12345', 'P12346']);
    expect(column('qualifier')).toEqual(['enables\tsomething "quoted"', null]);
    expect(column('neighbor_vote_fraction')).toEqual([0.00005, null]);
    expect(column('ref_protein_accession')).toEqual(['Q99999', null]);
    expect(column('features').map((f) => JSON.parse(String(f)) as unknown)).toEqual([
      { identity: 0.9, self_hit: true },
      {},
    ]);
    expect(values.every((c) => c.length === 2)).toBe(true);
  });

  it.each([
    ['other column names', ['protein_accession'], encodePredictionColumns(rows), /columns must be/],
    [
      'columns out of order',
      [...PREDICTION_ROW_COLUMN_NAMES].reverse(),
      encodePredictionColumns(rows),
      /columns must be/,
    ],
    ['text that is not JSON', PREDICTION_ROW_COLUMN_NAMES, '[[1,', /not JSON/],
    ['too few columns', PREDICTION_ROW_COLUMN_NAMES, '[[1],[2]]', /must hold \d+ columns/],
    [
      'columns of different lengths',
      PREDICTION_ROW_COLUMN_NAMES,
      JSON.stringify(PREDICTION_ROW_COLUMN_NAMES.map((_, i) => (i === 3 ? [] : [null]))),
      /must be an array of 1 values/,
    ],
    [
      'an object value',
      PREDICTION_ROW_COLUMN_NAMES,
      JSON.stringify(PREDICTION_ROW_COLUMN_NAMES.map((_, i) => (i === 5 ? [{ $gt: 1 }] : [null]))),
      /not a string, a finite number or null/,
    ],
  ])('refuses %s', (_what, names, values, reason) => {
    const decoded = decodePredictionColumns(names, values);
    expect('error' in decoded && decoded.error).toMatch(reason);
  });
});
