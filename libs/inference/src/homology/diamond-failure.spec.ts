import { classifyDiamondFailure } from './diamond-failure';

// DIAMOND 2.1's own words (Debian's diamond-aligner), as it writes them on stderr before exiting 1.
describe('classifyDiamondFailure', () => {
  it.each([
    {
      name: 'protein input made only of DNA letters',
      stderr:
        'Error: The sequences are expected to be proteins but only contain DNA letters. Use the option --ignore-warnings to proceed.',
      problem: 'nucleotide_sequences',
    },
    {
      name: 'a character that is no residue',
      stderr: 'Error: Error reading input stream at line 2: Invalid character (1) in sequence',
      problem: 'invalid_character',
    },
    {
      name: 'a character that is no residue, in a BLAST database',
      stderr: 'Error: Unrecognized sequence character in BLAST database',
      problem: 'invalid_character',
    },
    {
      name: 'a file that does not start with a header',
      stderr:
        "Error: Error detecting input file format. First line must begin with '>' (FASTA) or '@' (FASTQ).",
      problem: 'unreadable_input',
    },
    {
      name: 'an empty file',
      stderr: 'Error: Error detecting input file format. First line seems to be blank.',
      problem: 'unreadable_input',
    },
    {
      name: 'an empty record',
      stderr: 'Error: File format error: sequence of length 0 at line 3',
      problem: 'unreadable_input',
    },
    {
      name: 'the complaint after progress lines',
      stderr:
        'diamond v2.1.3.157 (C) Max Planck Society\n#CPU threads: 2\nError: The sequences are expected to be proteins but only contain DNA letters.',
      problem: 'nucleotide_sequences',
    },
    // Failures of the service's own making stay unexpected errors (with a reference to the log line).
    {
      name: 'a missing database',
      stderr: 'Error: Error opening file /var/x/ref.dmnd: No such file or directory',
      problem: null,
    },
    { name: 'memory', stderr: 'Error: std::bad_alloc', problem: null },
    { name: 'nothing said', stderr: '', problem: null },
  ])('$name: $problem', ({ stderr, problem }) => expect(classifyDiamondFailure(stderr)).toBe(problem));
});
