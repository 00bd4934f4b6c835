import { problemMessage } from '../src/problem-message';

const nucleotideProblem = (records: number) => ({
  type: '/problems/validation-error',
  title: 'Validation Error',
  status: 422,
  detail: `${records} records look like nucleotide sequences (DNA or RNA), not proteins: NM_1, NM_2, NM_3, NM_4, NM_5 and ${records - 5} more.`,
  errors: Array.from({ length: records }, (_, i) => ({
    path: `file:${2 * i + 1}`,
    message: `line ${2 * i + 1}: NM_${i + 1} looks like a nucleotide sequence (100 % A/C/G/T/U/N), not a protein`,
  })),
});

describe('problemMessage', () => {
  it.each([
    {
      name: 'a refused upload of many records: the detail, which counts them',
      status: 422,
      body: nucleotideProblem(40),
      message: nucleotideProblem(40).detail,
    },
    {
      name: 'a few field errors: each of them',
      status: 422,
      body: {
        status: 422,
        detail: 'name: too long; taxon: not a number',
        errors: [
          { path: 'name', message: 'name: too long' },
          { path: 'taxon', message: 'taxon: not a number' },
        ],
      },
      message: 'name: too long; taxon: not a number',
    },
    {
      name: 'a quota refusal: its detail',
      status: 429,
      body: {
        status: 429,
        detail: 'daily quota for annotate_sequences exceeded: 20 sequences asked, 10 allowed a day',
      },
      message: 'daily quota for annotate_sequences exceeded: 20 sequences asked, 10 allowed a day',
    },
    { name: 'a title alone', status: 404, body: { title: 'Not Found' }, message: 'Not Found' },
    { name: 'no problem document', status: 502, body: '<html>', message: 'request failed (HTTP 502)' },
  ])('$name', ({ status, body, message }) => expect(problemMessage(status, body)).toBe(message));
});
