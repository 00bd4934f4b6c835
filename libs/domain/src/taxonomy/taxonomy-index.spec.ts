import { TaxonomicRelation, TaxonomyIndex } from './taxonomy-index';
import { compareTaxa } from './taxonomy-features';
import { NODES_EXCERPT } from '../../testing/taxonomy/nodes-excerpt';

const index = TaxonomyIndex.fromNodes(
  NODES_EXCERPT.map(([taxId, parentTaxId, rank]) => ({ taxId, parentTaxId, rank })),
);

const HUMAN = 9606;
const HOMO = 9605;
const CHIMP = 9598;
const MOUSE = 10090;
const MUS_SPRETUS = 10096;
const YEAST = 4932;
const YEAST_S288C = 559292;
const EUARCHONTOGLIRES = 314146;
const OPISTHOKONTA = 33154;
const UNKNOWN = 999_999;

// Root first, as in NCBI's lineage display.
const HUMAN_LINEAGE = [
  1, 131567, 2759, 33154, 33208, 6072, 33213, 33511, 7711, 89593, 7742, 7776, 117570, 117571, 8287, 1338369,
  32523, 32524, 40674, 32525, 9347, 1437010, 314146, 9443, 376913, 314293, 9526, 314295, 9604, 207598, 9605,
  9606,
];

describe('TaxonomyIndex.lineage', () => {
  it.each([
    { name: 'Homo sapiens up to the root', taxId: HUMAN, expected: HUMAN_LINEAGE },
    {
      name: 'Saccharomyces cerevisiae S288C',
      taxId: YEAST_S288C,
      expected: [
        1, 131567, 2759, 33154, 4751, 451864, 4890, 716545, 147537, 4891, 4892, 4893, 4930, 4932, 559292,
      ],
    },
    { name: 'the root alone', taxId: 1, expected: [1] },
    { name: 'an unknown tax id', taxId: UNKNOWN, expected: null },
    { name: 'tax id 0', taxId: 0, expected: null },
    { name: 'a negative tax id', taxId: -9606, expected: null },
    { name: 'a fractional tax id', taxId: 9606.5, expected: null },
  ])('$name', ({ taxId, expected }) => {
    expect(index.lineage(taxId)).toEqual(expected);
  });

  it('knows depth and rank', () => {
    expect(index.depth(HUMAN)).toBe(31);
    expect(index.depth(1)).toBe(0);
    expect(index.rank(HUMAN)).toBe('species');
    expect(index.rank(862507)).toBe('subgenus');
    expect(index.rank(UNKNOWN)).toBeNull();
  });
});

describe('comparing two taxa', () => {
  const cases: {
    name: string;
    a: number;
    b: number;
    lca: number | null;
    distance: number | null;
    common: number | null;
    relation: TaxonomicRelation | null;
  }[] = [
    { name: 'human with itself', a: HUMAN, b: HUMAN, lca: HUMAN, distance: 0, common: 32, relation: 'same' },
    {
      name: 'human and its genus',
      a: HUMAN,
      b: HOMO,
      lca: HOMO,
      distance: 1,
      common: 31,
      relation: 'ancestor',
    },
    {
      name: 'the genus and human',
      a: HOMO,
      b: HUMAN,
      lca: HOMO,
      distance: 1,
      common: 31,
      relation: 'descendant',
    },
    {
      name: 'human and chimpanzee (Homininae)',
      a: HUMAN,
      b: CHIMP,
      lca: 207598,
      distance: 4,
      common: 30,
      relation: 'related',
    },
    {
      name: 'human and mouse (Euarchontoglires)',
      a: HUMAN,
      b: MOUSE,
      lca: EUARCHONTOGLIRES,
      distance: 18,
      common: 23,
      relation: 'related',
    },
    {
      name: 'two species of subgenus Mus',
      a: MOUSE,
      b: MUS_SPRETUS,
      lca: 862507,
      distance: 2,
      common: 31,
      relation: 'sibling',
    },
    {
      name: 'human and yeast (Opisthokonta)',
      a: HUMAN,
      b: YEAST,
      lca: OPISTHOKONTA,
      distance: 38,
      common: 4,
      relation: 'related',
    },
    {
      name: 'a species and its strain',
      a: YEAST,
      b: YEAST_S288C,
      lca: YEAST,
      distance: 1,
      common: 14,
      relation: 'descendant',
    },
    { name: 'the root and human', a: 1, b: HUMAN, lca: 1, distance: 31, common: 1, relation: 'descendant' },
    {
      name: 'an unknown query taxon',
      a: UNKNOWN,
      b: HUMAN,
      lca: null,
      distance: null,
      common: null,
      relation: null,
    },
    {
      name: 'an unknown reference taxon',
      a: HUMAN,
      b: UNKNOWN,
      lca: null,
      distance: null,
      common: null,
      relation: null,
    },
    {
      name: 'an unknown taxon with itself',
      a: UNKNOWN,
      b: UNKNOWN,
      lca: null,
      distance: null,
      common: null,
      relation: null,
    },
  ];

  it.each(cases)('$name', ({ a, b, lca, distance, common, relation }) => {
    expect({
      lca: index.lowestCommonAncestor(a, b),
      distance: index.taxonomicDistance(a, b),
      common: index.commonAncestorCount(a, b),
      relation: index.relation(a, b),
    }).toEqual({ lca, distance, common, relation });
  });
});

describe('broken lineages', () => {
  const broken = TaxonomyIndex.fromNodes([
    { taxId: 1, parentTaxId: 1, rank: 'no rank' },
    { taxId: 2, parentTaxId: 1, rank: 'superkingdom' },
    { taxId: 5, parentTaxId: 4, rank: 'species' }, // parent 4 missing from the dump
    { taxId: 7, parentTaxId: 8, rank: 'genus' }, // 7 and 8 form a cycle
    { taxId: 8, parentTaxId: 7, rank: 'genus' },
    { taxId: 9, parentTaxId: 7, rank: 'species' },
    { taxId: 100, parentTaxId: 100, rank: 'no rank' }, // a second root
  ]);

  it.each([
    { name: 'a dangling parent', taxId: 5 },
    { name: 'a cycle', taxId: 7 },
    { name: 'a taxon below a cycle', taxId: 9 },
  ])('$name leaves the lineage unknown', ({ taxId }) => {
    expect(broken.lineage(taxId)).toBeNull();
    expect(broken.taxonomicDistance(taxId, 2)).toBeNull();
    expect(broken.has(taxId)).toBe(true);
  });

  it('finds nothing in common between two roots', () => {
    expect(broken.lineage(100)).toEqual([100]);
    expect(broken.lowestCommonAncestor(100, 2)).toBeNull();
    expect(broken.relation(2, 100)).toBeNull();
  });

  it('still answers for intact lineages', () => {
    expect(broken.lineage(2)).toEqual([1, 2]);
  });

  it('rejects a tax id outside the bound', () => {
    expect(() => TaxonomyIndex.fromNodes([{ taxId: 0, parentTaxId: 1, rank: 'species' }])).toThrow(
      RangeError,
    );
  });
});

describe('compareTaxa', () => {
  it('gives the prediction-row columns', () => {
    expect(compareTaxa({ index, query: HUMAN, reference: MOUSE })).toEqual({
      taxonomic_lca: EUARCHONTOGLIRES,
      taxonomic_distance: 18,
      taxonomic_common_ancestors: 23,
      taxonomic_relation: 'related',
    });
  });

  it.each([
    { name: 'no query tax id', query: null, reference: HUMAN },
    { name: 'no reference tax id', query: HUMAN, reference: undefined },
    { name: 'an unknown lineage', query: UNKNOWN, reference: HUMAN },
  ])('is null, not 0, with $name', ({ query, reference }) => {
    expect(compareTaxa({ index, query, reference })).toEqual({
      taxonomic_lca: null,
      taxonomic_distance: null,
      taxonomic_common_ancestors: null,
      taxonomic_relation: null,
    });
  });
});
