/** What DIAMOND refused in the sequences it was given (as opposed to a failure of its own or ours). */
export type DiamondInputProblem = 'nucleotide_sequences' | 'invalid_character' | 'unreadable_input';

/**
 * DIAMOND 2.x's complaints about its input, as it writes them on stderr: protein input made only of
 * DNA letters (it asks for --ignore-warnings, which would align DNA as if it were protein), a
 * character that is no residue, and a file it cannot read as FASTA.
 */
const COMPLAINTS: readonly (readonly [RegExp, DiamondInputProblem])[] = [
  [/only contain DNA letters/i, 'nucleotide_sequences'],
  [/invalid character .* in sequence|unrecognized sequence character/i, 'invalid_character'],
  [
    /error detecting input file format|file format error|FASTQ format error|does not have a supported format/i,
    'unreadable_input',
  ],
];

/** What DIAMOND's stderr says was wrong with its input; null for any other failure. */
export function classifyDiamondFailure(stderr: string): DiamondInputProblem | null {
  for (const [pattern, problem] of COMPLAINTS) if (pattern.test(stderr)) return problem;
  return null;
}

/**
 * DIAMOND refused the sequences it was given: the query set's, or the reference proteins' (when it
 * formats their database). The message names neither the files nor what they hold.
 */
export class DiamondInputError extends Error {
  constructor(
    readonly problem: DiamondInputProblem,
    readonly input: 'queries' | 'references',
  ) {
    super(`DIAMOND refused the ${input === 'queries' ? 'query' : 'reference'} sequences (${problem})`);
    this.name = 'DiamondInputError';
  }
}
