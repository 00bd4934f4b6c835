import { parseGafLine } from './gaf-line';
import {
  PREDICTION_GAF_ASSIGNED_BY,
  PREDICTION_GAF_REFERENCES,
  predictionGafHeader,
  predictionGafLine,
  type PredictedGafTerm,
} from './gaf-prediction';
import { GafReader } from './gaf-reader';
import type { GafRecord } from './gaf-record';

const SET_ID = '0b9f3f1e-1c1a-4c1e-9f1e-1c1a4c1e9f1e';

const base: PredictedGafTerm = {
  protein: 'P04637',
  goId: 'GO:0003677',
  aspect: 'F',
  taxonId: '9606',
  donor: 'Q9NP62',
  date: '20261125',
};

const columns = (term: Partial<PredictedGafTerm>): string[] =>
  predictionGafLine({ ...base, ...term }).split('\t');

/** Evidence codes of the GO evidence code guide (GAF 2.2 column 7). */
const EVIDENCE_CODES = new Set(
  'EXP IDA IPI IMP IGI IEP HTP HDA HMP HGI HEP IBA IBD IKR IRD ISS ISO ISA ISM IGC RCA TAS NAS IC ND IEA'.split(
    ' ',
  ),
);

/** GAF 2.2 relations (column 4) per aspect. */
const RELATIONS: Record<string, readonly string[]> = {
  F: ['enables', 'contributes_to'],
  P: [
    'involved_in',
    'acts_upstream_of',
    'acts_upstream_of_positive_effect',
    'acts_upstream_of_negative_effect',
    'acts_upstream_of_or_within',
    'acts_upstream_of_or_within_positive_effect',
    'acts_upstream_of_or_within_negative_effect',
  ],
  C: ['located_in', 'part_of', 'is_active_in', 'colocalizes_with'],
};

const DB_ID = /^[A-Za-z][\w.-]*:\S+$/;

/**
 * The column rules of the GAF 2.2 specification (geneontology.org/docs/go-annotation-file-gaf-format-2.2),
 * checked on a line independently of the service's reader: every problem found, [] for a good line.
 * `prefixes` are the DB prefixes the file may use (registered ones and those its header declares).
 */
function gaf22Problems(line: string, prefixes: ReadonlySet<string>, assignedBy: string): string[] {
  const c = line.split('\t');
  if (c.length !== 17) return [`${c.length} columns, not 17`];
  const problems: string[] = [];
  const col = (n: number): string => c[n - 1]!;
  for (const n of [1, 2, 3, 4, 5, 6, 7, 9, 12, 13, 14, 15])
    if (col(n).trim() === '') problems.push(`column ${n} is required`);
  for (const n of [1, 2, 3, 10, 12, 14, 15])
    if (col(n).includes('|')) problems.push(`column ${n} takes one value`);
  if (!prefixes.has(col(1))) problems.push(`column 1 DB '${col(1)}' is not declared`);
  const [negation, relation, ...more] = col(4).startsWith('NOT|') ? col(4).split('|') : ['', col(4)];
  if (negation !== '' && negation !== 'NOT') problems.push('column 4 negation');
  if (more.length > 0 || !(RELATIONS[col(9)] ?? []).includes(relation ?? ''))
    problems.push(`column 4 '${col(4)}' is not a relation of aspect ${col(9)}`);
  if (!/^GO:\d{7}$/.test(col(5))) problems.push('column 5 is not GO:nnnnnnn');
  for (const reference of col(6).split('|')) {
    if (!DB_ID.test(reference)) problems.push(`column 6 '${reference}' is not DB:id`);
    else if (!prefixes.has(reference.split(':')[0]!))
      problems.push(`column 6 prefix of '${reference}' is not declared`);
  }
  if (!EVIDENCE_CODES.has(col(7))) problems.push(`column 7 '${col(7)}' is not an evidence code`);
  if (col(8) !== '')
    for (const item of col(8).split(/[|,]/))
      if (!DB_ID.test(item)) problems.push(`column 8 '${item}' is not DB:id`);
  if (!['P', 'F', 'C'].includes(col(9))) problems.push('column 9 is not P, F or C');
  if (!['protein', 'protein_complex', 'gene', 'gene_product', 'RNA', 'ncRNA'].includes(col(12)))
    problems.push(`column 12 '${col(12)}' is not a type`);
  if (!/^taxon:[1-9]\d*(\|taxon:[1-9]\d*)?$/.test(col(13))) problems.push('column 13 is not taxon:<id>');
  const date = /^(\d{4})(\d{2})(\d{2})$/.exec(col(14));
  if (
    date === null ||
    Number(date[2]) < 1 ||
    Number(date[2]) > 12 ||
    Number(date[3]) < 1 ||
    Number(date[3]) > 31
  )
    problems.push('column 14 is not YYYYMMDD');
  if (col(15) !== assignedBy) problems.push(`column 15 '${col(15)}' is not the generated-by '${assignedBy}'`);
  if (
    col(16) !== '' &&
    !/^[a-z_]+\([A-Za-z][\w.-]*:[^()\s]+\)([|,][a-z_]+\([A-Za-z][\w.-]*:[^()\s]+\))*$/.test(col(16))
  )
    problems.push(`column 16 '${col(16)}' is not a relational extension`);
  if (col(17) !== '' && !DB_ID.test(col(17))) problems.push('column 17 is not DB:id');
  return problems;
}

describe('predictionGafLine', () => {
  it('is a GAF 2.2 record the service’s own parser reads back', () => {
    const parsed = parseGafLine(predictionGafLine(base), 1);
    expect(parsed.kind).toBe('record');
    if (parsed.kind !== 'record') return;
    expect(parsed.record).toMatchObject({
      db: 'UniProtKB',
      dbObjectId: 'P04637',
      relation: 'enables',
      goId: 'GO:0003677',
      evidenceCode: 'IEA',
      withFrom: 'UniProtKB:Q9NP62',
      aspect: 'F',
      isNot: false,
    });
  });

  it('column 6 is the method’s documented reference, never an SVC:<set id>', () => {
    expect(columns({})[5]).toBe('SVC_REF:0000001');
    expect(columns({ donor: null })[5]).toBe('SVC_REF:0000002');
    expect(PREDICTION_GAF_REFERENCES).toEqual({
      homology: 'SVC_REF:0000001',
      prior: 'SVC_REF:0000002',
      known: 'SVC_REF:0000003',
    });
    for (const line of [predictionGafLine(base), predictionGafLine({ ...base, donor: null })])
      expect(line).not.toContain(SET_ID);
  });

  it('a known term (the query is a reference protein) keeps its recorded evidence code, no With/From', () => {
    const known = columns({ known: { evidenceCode: 'IDA' } });
    expect([known[5], known[6], known[7]]).toEqual(['SVC_REF:0000003', 'IDA', '']);
    // A code GAF does not know (or none) is written as IEA.
    expect(columns({ known: { evidenceCode: 'XYZ' } })[6]).toBe('IEA');
    expect(columns({ known: { evidenceCode: null } })[6]).toBe('IEA');
    expect(parseGafLine(predictionGafLine({ ...base, known: { evidenceCode: 'IMP' } }), 1).kind).toBe(
      'record',
    );
  });

  it('column 15 is the service’s short name, the one the header declares as generated-by', () => {
    const header = new GafReader();
    predictionGafHeader({ predictionSetId: SET_ID, generated: '2026-11-25', minScore: 0 }).forEach((l) =>
      header.push(l),
    );
    expect(columns({})[14]).toBe(PREDICTION_GAF_ASSIGNED_BY);
    expect(header.header.properties['generated-by']).toBe(columns({})[14]);
  });

  it('column 8: the donor for a homology row; empty (allowed for IEA) for a prior-only row', () => {
    expect(columns({})[7]).toBe('UniProtKB:Q9NP62');
    expect(columns({ donor: 'A0A024R161' })[7]).toBe('UniProtKB:A0A024R161');
    expect(columns({ donor: null })[7]).toBe('');
    expect(columns({ donor: null })[6]).toBe('IEA');
  });

  it('column 3 is the gene name (GN=) when the query has one, else the protein id', () => {
    expect(columns({ symbol: 'TP53' })[2]).toBe('TP53');
    expect(columns({ symbol: ' TP53 ' })[2]).toBe('TP53');
    expect(columns({ protein: 'query_1', symbol: 'abcA' }).slice(0, 3)).toEqual(['SVC', 'query_1', 'abcA']);
    expect(columns({ symbol: null })[2]).toBe('P04637');
    expect(columns({ symbol: '' })[2]).toBe('P04637');
    expect(columns({})[2]).toBe('P04637');
  });

  it('column 13 is the query’s taxon (OX= or the upload’s), taxon:32644 (unidentified) without one', () => {
    expect(columns({ taxonId: '559292' })[12]).toBe('taxon:559292');
    expect(columns({ taxonId: null })[12]).toBe('taxon:32644');
    for (const taxonId of ['', 'human', '0', '-9606', '9606.5'])
      expect(columns({ taxonId })[12]).toBe('taxon:32644');
  });

  it('names the aspect’s relation; a query that is not a UniProtKB accession is under the SVC prefix', () => {
    for (const [aspect, relation] of [
      ['F', 'enables'],
      ['P', 'involved_in'],
      ['C', 'located_in'],
    ] as const) {
      const line = predictionGafLine({ ...base, aspect, taxonId: null, donor: null, protein: 'my query 1' });
      const parsed = parseGafLine(line, 1);
      expect(parsed.kind).toBe('record');
      if (parsed.kind !== 'record') continue;
      expect(parsed.record).toMatchObject({ db: 'SVC', relation, withFrom: null, aspect });
      expect(line.split('\t')).toHaveLength(17);
    }
  });

  it('keeps a tab or line break in a value from splitting the line', () => {
    expect(columns({ symbol: 'a\tb\nc' })).toHaveLength(17);
    expect(columns({ symbol: 'a\tb\nc' })[2]).toBe('a b c');
  });
});

describe('predictionGafHeader', () => {
  const lines = predictionGafHeader({ predictionSetId: SET_ID, generated: '2026-11-25', minScore: 0.3 });

  it('starts with the version and holds the headers GAF 2.2 requires', () => {
    expect(parseGafLine(lines[0]!, 1)).toEqual({ kind: 'header', key: 'gaf-version', value: '2.2' });
    for (const line of lines) expect(['header', 'comment']).toContain(parseGafLine(line, 1).kind);
    const reader = new GafReader();
    lines.forEach((l) => reader.push(l));
    expect(reader.header.properties).toMatchObject({
      'gaf-version': '2.2',
      'generated-by': 'SVC',
      'date-generated': '2026-11-25',
      'prediction-set': SET_ID,
      'min-score': '0.3',
    });
  });

  it('declares the service’s prefixes and both references', () => {
    const reader = new GafReader();
    lines.forEach((l) => reader.push(l));
    const { properties } = reader.header;
    expect(properties['assigned-by']).toMatch(/^SVC = /);
    expect(properties['homology-reference']).toMatch(/^SVC_REF:0000001 = .*With\/From names the donor/);
    expect(properties['prior-reference']).toMatch(/^SVC_REF:0000002 = .*With\/From empty/);
  });
});

describe('a prediction GAF file', () => {
  const terms: PredictedGafTerm[] = [
    { ...base, symbol: 'TP53' },
    { ...base, goId: 'GO:0006915', aspect: 'P', donor: null },
    { ...base, goId: 'GO:0005634', aspect: 'C', donor: 'P02340', symbol: null },
    { ...base, protein: 'query_1', symbol: 'ygiW', taxonId: '83333', donor: 'P0ADU5' },
    { ...base, protein: 'query_2', taxonId: null, donor: null, aspect: 'C', goId: 'GO:0005737' },
    { ...base, protein: 'Q9NP62-2', taxonId: '9606', date: '20240229' },
  ];
  const text = [
    ...predictionGafHeader({ predictionSetId: SET_ID, generated: '2026-11-25', minScore: 0.1 }),
    ...terms.map(predictionGafLine),
  ].join('\n');

  it('reads back through the service’s GAF reader: the header, then one record per term', () => {
    const reader = new GafReader();
    const parsed = text.split('\n').map((line) => reader.push(line));
    expect(parsed.filter((p) => p.kind === 'error')).toEqual([]);
    const records = parsed.flatMap((p) => (p.kind === 'record' ? [p.record] : []));
    expect(reader.header.version).toBe('2.2');
    expect(records.map((r) => [r.dbObjectId, r.dbObjectSymbol, r.goId, r.taxa, r.withFrom])).toEqual([
      ['P04637', 'TP53', 'GO:0003677', ['9606'], 'UniProtKB:Q9NP62'],
      ['P04637', 'P04637', 'GO:0006915', ['9606'], null],
      ['P04637', 'P04637', 'GO:0005634', ['9606'], 'UniProtKB:P02340'],
      ['query_1', 'ygiW', 'GO:0003677', ['83333'], 'UniProtKB:P0ADU5'],
      ['query_2', 'query_2', 'GO:0005737', ['32644'], null],
      ['Q9NP62-2', 'Q9NP62-2', 'GO:0003677', ['9606'], 'UniProtKB:Q9NP62'],
    ]);
    const common: Partial<GafRecord> = { evidenceCode: 'IEA', dbObjectType: 'protein', assignedBy: 'SVC' };
    for (const r of records) expect(r).toMatchObject(common);
  });

  it('meets every GAF 2.2 column rule, with the prefixes it uses declared in its header', () => {
    const reader = new GafReader();
    const lines = text.split('\n');
    lines.forEach((line) => reader.push(line));
    const { properties } = reader.header;
    expect(properties['date-generated']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const declared = new Set(
      ['assigned-by', 'homology-reference', 'prior-reference'].map((key) =>
        (properties[key] ?? '').replace(/[: ].*$/, ''),
      ),
    );
    expect(declared).toEqual(new Set(['SVC', 'SVC_REF']));
    const prefixes = new Set(['UniProtKB', ...declared]);
    const records = lines.filter((line) => !line.startsWith('!'));
    expect(records).toHaveLength(terms.length);
    for (const line of records)
      expect({ line, problems: gaf22Problems(line, prefixes, properties['generated-by']!) }).toEqual({
        line,
        problems: [],
      });
  });

  it('the rules checker refuses an undeclared reference, an undeclared Assigned By and a bare id in column 16', () => {
    const old =
      `UniProtKB\tP04637\tP04637\tenables\tGO:0003677\tSVC:${SET_ID}\tIEA\tUniProtKB:Q9NP62\tF\t\t\tprotein\t` +
      `taxon:9606\t20261125\tSVC\t${SET_ID}\t`;
    expect(gaf22Problems(old, new Set(['UniProtKB', 'SVC_REF']), 'SVC protein function service')).toEqual([
      `column 6 prefix of 'SVC:${SET_ID}' is not declared`,
      "column 15 'SVC' is not the generated-by 'SVC protein function service'",
      `column 16 '${SET_ID}' is not a relational extension`,
    ]);
  });
});
