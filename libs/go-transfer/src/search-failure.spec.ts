import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiamondInputError, diamondSearch, ensureDiamondDatabase } from '@svc/inference';
import { JobError, jobFailureOf } from '@svc/jobs';
import { asSearchJobError, withSearchJobErrors } from './search-failure';

const UBIQUITIN = 'MQIFVKTLTGKTITLEVEPSDTIENVKAKIQDKEGIPPDQQRLIFAGKQLEDGRTLSDYNIQKESTLHLVLRLRGG';
// The start of a coding sequence: what an upload of DNA in place of protein puts in a query set.
const CDS = 'ATGGAGGAGCCGCAGTCAGATCCTAGCGTCGAGCCCCCTCTGAGTCAGGAAACATTTTCAGACC';

describe('asSearchJobError', () => {
  it.each([
    {
      problem: 'nucleotide_sequences',
      input: 'queries',
      message: /^DIAMOND refused the query sequences: they hold only nucleotide letters .*not proteins/,
    },
    {
      problem: 'nucleotide_sequences',
      input: 'references',
      message: /^DIAMOND refused the reference sequences: they hold only nucleotide letters .*annotation set/,
    },
    {
      problem: 'invalid_character',
      input: 'queries',
      message: /^DIAMOND refused the query sequences: one holds a character that is no residue/,
    },
    {
      problem: 'unreadable_input',
      input: 'references',
      message: /^DIAMOND could not read the reference sequences as FASTA/,
    },
  ] as const)('$problem in the $input: search_input_rejected', ({ problem, input, message }) => {
    const mapped = asSearchJobError(new DiamondInputError(problem, input));
    expect(mapped).toBeInstanceOf(JobError);
    expect(mapped).toMatchObject({ code: 'search_input_rejected', message: expect.stringMatching(message) });
  });

  it('leaves any other error as it is (an unexpected error, with a reference to the log line)', () => {
    const other = new Error('DIAMOND blastp failed: Error: std::bad_alloc');
    expect(asSearchJobError(other)).toBe(other);
  });

  describe('with the installed DIAMOND', () => {
    let dir: string;
    beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'svc-search-failure-'))));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('a search of nucleotide queries fails its job with search_input_rejected, not internal_error', async () => {
      const database = await ensureDiamondDatabase({
        dir,
        references: [{ id: 'r0', sequence: UBIQUITIN }],
        threads: 1,
      });
      const failure = await withSearchJobErrors(
        diamondSearch({
          database,
          queries: [
            { id: 'q0', sequence: CDS },
            { id: 'q1', sequence: CDS.slice(10) },
          ],
          options: { threads: 1 },
          workDir: dir,
        }),
      ).then(
        () => null,
        (error: unknown) => jobFailureOf(error),
      );
      expect(failure).toMatchObject({ code: 'search_input_rejected', reference: null });
      // Written for whoever reads the job: no file path, no sequence.
      expect(failure!.message).not.toContain(dir);
      expect(failure!.message).not.toContain(CDS.slice(0, 20));
    });
  });
});
