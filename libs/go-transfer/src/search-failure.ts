import { DiamondInputError, type DiamondInputProblem } from '@svc/inference';
import { JobError } from '@svc/jobs';

const REFUSALS: Readonly<Record<DiamondInputProblem, (whose: 'query' | 'reference') => string>> = {
  nucleotide_sequences: (whose) =>
    `DIAMOND refused the ${whose} sequences: they hold only nucleotide letters (A, C, G, T, N), so they ` +
    (whose === 'query'
      ? 'look like DNA or RNA, not proteins; predict for protein sequences (translate coding sequences first)'
      : "look like DNA or RNA, not proteins; the annotation set's proteins must be loaded with their protein sequences"),
  invalid_character: (whose) =>
    `DIAMOND refused the ${whose} sequences: one holds a character that is no residue letter`,
  unreadable_input: (whose) =>
    `DIAMOND could not read the ${whose} sequences as FASTA (a record without a sequence, or no record at all)`,
};

/**
 * A search tool's refusal of its input as the job error `search_input_rejected`, with a message for
 * whoever reads the job (what was refused and why, never a path or a sequence); any other error is
 * returned as it is.
 */
export function asSearchJobError(error: unknown): unknown {
  if (!(error instanceof DiamondInputError)) return error;
  const whose = error.input === 'queries' ? 'query' : 'reference';
  return new JobError('search_input_rejected', REFUSALS[error.problem](whose));
}

/** `work`, with a search tool's refusal of its input turned into `search_input_rejected`. */
export async function withSearchJobErrors<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw asSearchJobError(error);
  }
}
