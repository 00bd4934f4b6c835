import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip, gunzipSync } from 'node:zlib';
import { parseObo, readObo } from './obo-parser';
import type { OboDocument, RelationType } from './obo-types';

// The shared data folder sits next to the repository checkout, here and in CI.
const DATA = path.resolve(__dirname, '../../../../../shared/data');

type OtherRelation = Exclude<RelationType, 'is_a'>;

interface Counts {
  terms: number;
  obsolete: number;
  altIds: number;
  isA: number;
  relationships: Record<OtherRelation, number>;
  typedefs: number;
  dataVersion: string | null;
}

/**
 * The expected numbers, counted straight from the raw lines with nothing shared with the parser:
 * a line-by-line pass that only tracks which stanza it is in.
 */
function countRaw(text: string): Counts {
  const counts: Counts = {
    terms: 0,
    obsolete: 0,
    altIds: 0,
    isA: 0,
    relationships: { part_of: 0, regulates: 0, negatively_regulates: 0, positively_regulates: 0 },
    typedefs: 0,
    dataVersion: null,
  };
  let stanza = 'header';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[(\w+)\]$/.exec(line);
    if (header !== null) {
      stanza = header[1] as string;
      if (stanza === 'Term') counts.terms++;
      if (stanza === 'Typedef') counts.typedefs++;
      continue;
    }
    if (stanza === 'header') {
      const version = /^data-version:\s*(\S+)/.exec(line);
      if (version !== null) counts.dataVersion = version[1] as string;
      continue;
    }
    if (stanza !== 'Term') continue;
    if (/^is_obsolete:\s*true\b/.test(line)) counts.obsolete++;
    if (/^alt_id:/.test(line)) counts.altIds++;
    if (/^is_a:/.test(line)) counts.isA++;
    const rel = /^relationship:\s*(part_of|regulates|negatively_regulates|positively_regulates)\s/.exec(line);
    if (rel !== null) counts.relationships[rel[1] as OtherRelation]++;
  }
  return counts;
}

/** The same numbers taken from the parsed document. */
function countParsed(doc: OboDocument): Counts {
  const counts: Counts = {
    terms: doc.terms.length,
    obsolete: 0,
    altIds: 0,
    isA: 0,
    relationships: { part_of: 0, regulates: 0, negatively_regulates: 0, positively_regulates: 0 },
    typedefs: doc.typedefs.length,
    dataVersion: doc.header.dataVersion,
  };
  for (const term of doc.terms) {
    if (term.isObsolete) counts.obsolete++;
    counts.altIds += term.altIds.length;
    for (const parent of term.parents) {
      if (parent.relation === 'is_a') counts.isA++;
      else counts.relationships[parent.relation]++;
    }
  }
  return counts;
}

function readGz(file: string): string {
  return gunzipSync(readFileSync(path.join(DATA, 'go', file))).toString('utf8');
}

describe('parseObo on full GO releases', () => {
  // Pinned as well as counted, so a change in the data folder shows up as a failing row.
  it.each<{ file: string; expected: Counts }>([
    {
      file: 'go-basic.godb-3.12.1.2020-09-10.obo.gz',
      expected: {
        terms: 47_335,
        obsolete: 3_063,
        altIds: 3_042,
        isA: 72_700,
        relationships: {
          part_of: 7_442,
          regulates: 3_203,
          negatively_regulates: 2_770,
          positively_regulates: 2_755,
        },
        typedefs: 4,
        dataVersion: 'releases/2020-09-10',
      },
    },
    {
      file: 'go-basic.godb-3.16.0.2022-07-01.obo.gz',
      expected: {
        terms: 47_468,
        obsolete: 3_910,
        altIds: 3_450,
        isA: 70_058,
        relationships: {
          part_of: 6_997,
          regulates: 3_184,
          negatively_regulates: 2_742,
          positively_regulates: 2_732,
        },
        typedefs: 4,
        dataVersion: 'releases/2022-07-01',
      },
    },
    {
      file: 'go-basic.godb-3.20.0.built-2024-09-23.obo.gz',
      expected: {
        terms: 48_193,
        obsolete: 7_254,
        altIds: 3_357,
        isA: 64_364,
        relationships: {
          part_of: 6_620,
          regulates: 3_040,
          negatively_regulates: 2_639,
          positively_regulates: 2_650,
        },
        typedefs: 4,
        dataVersion: 'godb-3.20.0-built-2024-09-23',
      },
    },
  ])('$file', ({ file, expected }) => {
    const text = readGz(file);
    const started = performance.now();
    const doc = parseObo(text);
    const elapsedMs = performance.now() - started;
    const parsed = countParsed(doc);
    console.log(`${file}: parsed in ${elapsedMs.toFixed(0)} ms`, JSON.stringify(parsed));

    expect(parsed).toEqual(countRaw(text));
    expect(parsed).toEqual(expected);
    expect(doc.header).toMatchObject({ formatVersion: '1.2', ontology: 'go' });
    expect(doc.typedefs).toEqual(['negatively_regulates', 'part_of', 'positively_regulates', 'regulates']);

    const byId = new Map(doc.terms.map((t) => [t.id, t]));
    expect(byId.size).toBe(doc.terms.length);
    expect(byId.get('GO:0008150')).toMatchObject({
      name: 'biological_process',
      aspect: 'P',
      parents: [],
      isObsolete: false,
    });
    expect(byId.get('GO:0005575')).toMatchObject({ name: 'cellular_component', aspect: 'C', parents: [] });
    expect(byId.get('GO:0003674')).toMatchObject({ name: 'molecular_function', aspect: 'F', parents: [] });
    // Every term is in one of the three aspects, and every edge points at a term of the same release.
    expect(doc.terms.filter((t) => t.aspect === null)).toEqual([]);
    const dangling = doc.terms.flatMap((t) => t.parents.filter((p) => !byId.has(p.id)));
    expect(dangling).toEqual([]);
  });

  it('reads a release streamed through gunzip and readline to the same document', async () => {
    const file = 'go-basic.godb-3.16.0.2022-07-01.obo.gz';
    const input = createReadStream(path.join(DATA, 'go', file)).pipe(createGunzip());
    const streamed = await readObo(createInterface({ input, crlfDelay: Infinity }));
    const whole = parseObo(readGz(file));
    expect(streamed.terms).toHaveLength(whole.terms.length);
    // A string comparison keeps the check fast on ~47k terms; toEqual would be far slower here.
    expect(JSON.stringify(streamed) === JSON.stringify(whole)).toBe(true);
  });
});

describe('parseObo on small real files', () => {
  it.each([
    { file: 'fixtures/goatools/goslim_generic.obo', terms: 149, typedefs: 10 },
    { file: 'fixtures/goatools/mini_obo.obo', terms: 10, typedefs: 0 },
    { file: 'fixtures/goatools/mini_obo_rel.obo', terms: 4, typedefs: 0 },
    { file: 'fixtures/goatools/fig1a.obo', terms: 15, typedefs: 0 },
    { file: 'tiny/go-subset.2022-07-01.obo', terms: 716, typedefs: 4 },
    { file: 'tiny/go-subset.2024-09.obo', terms: 1251, typedefs: 4 },
  ])('$file', ({ file, terms, typedefs }) => {
    const text = readFileSync(path.join(DATA, file), 'utf8');
    const parsed = countParsed(parseObo(text));
    expect(parsed).toEqual(countRaw(text));
    expect(parsed).toMatchObject({ terms, typedefs });
  });

  it('goslim_generic: header, Typedef ids, ignored relationship kinds and intersections', () => {
    const doc = parseObo(readFileSync(path.join(DATA, 'fixtures/goatools/goslim_generic.obo'), 'utf8'));
    expect(doc.header).toEqual({
      formatVersion: '1.2',
      dataVersion: null,
      ontology: 'go/subsets/goslim_generic',
      date: null,
    });
    expect(doc.typedefs).toEqual([
      'ends_during',
      'happens_during',
      'has_part',
      'negatively_regulates',
      'never_in_taxon',
      'occurs_in',
      'part_of',
      'positively_regulates',
      'regulates',
      'starts_during',
    ]);
    const chromosome = doc.terms.find((t) => t.id === 'GO:0000228');
    // The edges come from is_a and relationship; the intersection_of lines (the logical definition)
    // add nothing, which the raw counts above also confirm for the whole file.
    expect(chromosome?.parents).toEqual([
      { id: 'GO:0005694', relation: 'is_a' },
      { id: 'GO:0005634', relation: 'part_of' },
    ]);
    // has_part (6 lines) and occurs_in (4 lines) are in the file but are not parent edges.
    const relations = new Set(doc.terms.flatMap((t) => t.parents.map((p) => p.relation)));
    expect([...relations].sort()).toEqual(['is_a', 'part_of', 'regulates']);
  });

  it('mini_obo: free-text header lines are ignored', () => {
    const doc = parseObo(readFileSync(path.join(DATA, 'fixtures/goatools/mini_obo.obo'), 'utf8'));
    expect(doc.header).toEqual({ formatVersion: null, dataVersion: null, ontology: null, date: null });
    expect(doc.terms.find((t) => t.id === 'GO:0000010')?.parents).toEqual([
      { id: 'GO:0000005', relation: 'is_a' },
      { id: 'GO:0000008', relation: 'is_a' },
    ]);
  });

  it('mini_obo_rel: is_a and part_of on one term', () => {
    const doc = parseObo(readFileSync(path.join(DATA, 'fixtures/goatools/mini_obo_rel.obo'), 'utf8'));
    expect(doc.terms.find((t) => t.id === 'GO:0000004')?.parents).toEqual([
      { id: 'GO:0000002', relation: 'is_a' },
      { id: 'GO:0000003', relation: 'part_of' },
    ]);
  });

  it('fig1a: every term is a cellular component', () => {
    const doc = parseObo(readFileSync(path.join(DATA, 'fixtures/goatools/fig1a.obo'), 'utf8'));
    expect(new Set(doc.terms.map((t) => t.aspect))).toEqual(new Set(['C']));
  });

  it('tiny 2022-07-01 subset: header and alt ids', () => {
    const doc = parseObo(readFileSync(path.join(DATA, 'tiny/go-subset.2022-07-01.obo'), 'utf8'));
    expect(doc.header.dataVersion).toBe('releases/2022-07-01');
    expect(doc.terms.find((t) => t.id === 'GO:0000122')).toMatchObject({
      name: 'negative regulation of transcription by RNA polymerase II',
      aspect: 'P',
      altIds: ['GO:0010553', 'GO:0045816'],
    });
  });
});
