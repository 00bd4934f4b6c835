import { GoGraph, parseObo } from '../obo';
import { computeHoldoutDelta, type HoldoutAnnotation, type HoldoutDelta } from './holdout-delta';

//   P: GO:1 root; GO:2 is_a 1; GO:3 is_a 2; GO:4 part_of 2; GO:5 regulates 2 (not followed)
//   F: GO:10 root; GO:11 is_a 10 (alt GO:110); GO:12 is_a 10; GO:99 obsolete
//   C: GO:20 root; GO:21 is_a 20
const OBO = `format-version: 1.2
[Term]
id: GO:1
namespace: biological_process
[Term]
id: GO:2
namespace: biological_process
is_a: GO:1
[Term]
id: GO:3
namespace: biological_process
is_a: GO:2
[Term]
id: GO:4
namespace: biological_process
relationship: part_of GO:2
[Term]
id: GO:5
namespace: biological_process
relationship: regulates GO:2
[Term]
id: GO:10
namespace: molecular_function
[Term]
id: GO:11
namespace: molecular_function
alt_id: GO:110
is_a: GO:10
[Term]
id: GO:12
namespace: molecular_function
is_a: GO:10
[Term]
id: GO:99
namespace: molecular_function
is_obsolete: true
[Term]
id: GO:20
namespace: cellular_component
[Term]
id: GO:21
namespace: cellular_component
is_a: GO:20
`;

const ontology = new GoGraph(parseObo(OBO));

/** 'P1 GO:3 IDA' or 'P1 GO:2 IDA NOT'. */
function annotations(...lines: string[]): HoldoutAnnotation[] {
  return lines.map((line) => {
    const [protein = '', goId = '', evidence = '', not] = line.split(' ');
    return { protein, goId, evidence, isNot: not === 'NOT' };
  });
}

/** Ground truth and known as 'protein goId aspect' strings. */
function flat(delta: HoldoutDelta): Record<'NK' | 'LK' | 'PK' | 'known', string[]> {
  const show = (rows: HoldoutDelta['known']) => rows.map((r) => `${r.protein} ${r.goId} ${r.aspect}`);
  return {
    NK: show(delta.groundTruth.NK),
    LK: show(delta.groundTruth.LK),
    PK: show(delta.groundTruth.PK),
    known: show(delta.known),
  };
}

interface Case {
  name: string;
  old: string[];
  new: string[];
  extended?: boolean;
  expected: Partial<Record<'NK' | 'LK' | 'PK' | 'known', string[]>>;
}

const CASES: Case[] = [
  {
    name: 'NK: nothing experimental at t0; all new terms across aspects',
    old: ['P1 GO:3 IEA'],
    new: ['P1 GO:3 IDA', 'P1 GO:11 IMP'],
    expected: { NK: ['P1 GO:11 F', 'P1 GO:3 P'] },
  },
  {
    name: 'LK: annotated at t0, but not in the aspect that gains terms',
    old: ['P2 GO:11 IDA'],
    new: ['P2 GO:11 IDA', 'P2 GO:21 IPI'],
    expected: { LK: ['P2 GO:21 C'] },
  },
  {
    name: 'PK: only the novel terms; the old ones of that aspect become known',
    old: ['P3 GO:2 IGI'],
    new: ['P3 GO:2 IGI', 'P3 GO:3 IEP'],
    expected: { PK: ['P3 GO:3 P'], known: ['P3 GO:2 P'] },
  },
  {
    name: 'one protein LK in one aspect and PK in another; unchanged aspects add nothing',
    old: ['P4 GO:11 EXP', 'P4 GO:21 EXP'],
    new: ['P4 GO:11 EXP', 'P4 GO:12 EXP', 'P4 GO:3 EXP', 'P4 GO:21 EXP'],
    expected: { LK: ['P4 GO:3 P'], PK: ['P4 GO:12 F'], known: ['P4 GO:11 F'] },
  },
  {
    name: 'evidence: ECO ids count, IEA and non-experimental codes do not, TAS only when extended',
    old: ['P5 GO:11 TAS'],
    new: ['P5 GO:11 TAS', 'P5 GO:3 ECO:0000314', 'P5 GO:12 IEA', 'P5 GO:21 HDA'],
    expected: { NK: ['P5 GO:3 P'] },
  },
  {
    name: 'extended evidence: HDA and TAS count',
    old: ['P5 GO:11 TAS'],
    new: ['P5 GO:11 TAS', 'P5 GO:3 ECO:0000314', 'P5 GO:12 IEA', 'P5 GO:21 HDA'],
    extended: true,
    expected: { LK: ['P5 GO:21 C', 'P5 GO:3 P'] },
  },
  {
    name: 'NOT: the term and its is_a/part_of descendants leave both sides; regulates is not followed',
    old: ['P6 GO:2 IDA'],
    new: ['P6 GO:2 IDA NOT', 'P6 GO:3 IDA', 'P6 GO:4 IMP', 'P6 GO:5 IDA'],
    expected: { NK: ['P6 GO:5 P'] },
  },
  {
    name: 'NOT only affects its own protein; an old NOT excludes new terms too',
    old: ['P7 GO:11 IDA', 'P7 GO:3 IDA NOT'],
    new: ['P7 GO:11 IDA', 'P7 GO:3 IDA', 'P8 GO:3 IDA'],
    expected: { NK: ['P8 GO:3 P'] },
  },
  {
    name: 'alt ids resolve; obsolete and unknown terms are dropped; no change means no delta',
    old: ['P9 GO:110 IDA'],
    new: ['P9 GO:11 IDA', 'P9 GO:99 IDA', 'P9 GO:404 IDA'],
    expected: {},
  },
];

describe('computeHoldoutDelta', () => {
  it.each(CASES)('$name', (c) => {
    const delta = computeHoldoutDelta({
      old: annotations(...c.old),
      new: annotations(...c.new),
      ontology,
      includeExtendedEvidence: c.extended ?? false,
    });
    expect(flat(delta)).toEqual({ NK: [], LK: [], PK: [], known: [], ...c.expected });
  });

  it('reads NOT from a GAF qualifier column too', () => {
    const delta = computeHoldoutDelta({
      old: [],
      new: [
        { protein: 'P1', goId: 'GO:2', evidence: 'IDA', qualifier: 'NOT|involved_in' },
        { protein: 'P1', goId: 'GO:3', evidence: 'IDA', qualifier: 'involved_in' },
      ],
      ontology,
    });
    expect(delta.stats.delta_proteins).toBe(0);
  });

  it('counts proteins and annotations per category', () => {
    const all = CASES.filter((c) => c.extended !== true);
    const delta = computeHoldoutDelta({
      old: annotations(...all.flatMap((c) => c.old)),
      new: annotations(...all.flatMap((c) => c.new)),
      ontology,
    });
    // NK: P1 (2 terms), P5, P6, P8; LK: P2, P4; PK: P3, P4. P4 counts once among the delta proteins.
    expect(delta.stats).toEqual({
      delta_proteins: 7,
      delta_annotations: 9,
      nk_proteins: 4,
      nk_annotations: 5,
      lk_proteins: 2,
      lk_annotations: 2,
      pk_proteins: 2,
      pk_annotations: 2,
      known_annotations: 2,
    });
  });
});
