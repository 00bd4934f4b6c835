import { checkLafaFrame } from './lafa-frame';

const LAFA = {
  band: 'v226',
  iaSource: '/data/IA-v226.tsv',
  toiSource: 'file:///data/TOI-v226.txt',
  thStep: 0.01,
  maxTerms: null,
};

describe('checkLafaFrame', () => {
  it.each([
    { name: 'the LAFA recipe', input: LAFA, problems: [] },
    {
      name: 'no band',
      input: { ...LAFA, band: null },
      problems: ['a band (v226, v227) is required: it pins the IA and TOI files'],
    },
    { name: 'an unknown band', input: { ...LAFA, band: 'v999' }, problems: ["unknown band 'v999'"] },
    {
      name: 'an evaluation set without the NK gene carry-over',
      input: { ...LAFA, geneCarryOverExcluded: true },
      problems: [
        'the evaluation set leaves out NK proteins carried over at gene level (exclude_gene_carry_over); LAFA counts every protein without experimental terms at t0 as NK',
      ],
    },
    {
      name: "the other band's IA file",
      input: { ...LAFA, iaSource: '/data/IA-v227.tsv' },
      problems: ["the IA file must be band v226's (IA-v226…), not IA-v227.tsv"],
    },
    {
      name: 'no IA file',
      input: { ...LAFA, iaSource: null },
      problems: ['the IA file of band v226 (IA-v226…) is required'],
    },
    {
      name: 'no TOI file',
      input: { ...LAFA, toiSource: null },
      problems: ['the TOI file of band v226 (TOI-v226…) is required'],
    },
    {
      name: 'a TOI file of another release',
      input: { ...LAFA, toiSource: '/data/toi.txt' },
      problems: ["the TOI file must be band v226's (TOI-v226…), not toi.txt"],
    },
    {
      name: 'the token only in a folder name',
      input: { ...LAFA, toiSource: '/TOI-v226/terms.txt' },
      problems: ["the TOI file must be band v226's (TOI-v226…), not terms.txt"],
    },
    {
      name: 'another threshold step',
      input: { ...LAFA, thStep: 0.001 },
      problems: ['th_step must be the default 0.01, not 0.001'],
    },
    {
      name: 'a max_terms cut',
      input: { ...LAFA, maxTerms: 50 },
      problems: ['max_terms must be unlimited (null), not 50'],
    },
    {
      name: 'every problem at once',
      input: { band: 'v227', iaSource: null, toiSource: null, thStep: 0.05, maxTerms: 0 },
      problems: [
        'the IA file of band v227 (IA-v227…) is required',
        'the TOI file of band v227 (TOI-v227…) is required',
        'th_step must be the default 0.01, not 0.05',
        'max_terms must be unlimited (null), not 0',
      ],
    },
  ])('$name', ({ input, problems }) => {
    const check = checkLafaFrame(input);
    expect(check.ok ? [] : check.problems).toEqual(problems);
  });
});
