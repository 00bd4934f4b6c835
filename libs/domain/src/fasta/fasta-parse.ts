import { FastaReader } from './fasta-reader';
import type { FastaOptions, FastaResult } from './fasta-record';

/** Parses a whole FASTA text; LF, CRLF and lone CR line endings are all accepted. */
export function parseFasta(text: string, options: FastaOptions = {}): FastaResult {
  const reader = new FastaReader(options);
  for (const line of text.split(/\r\n|\r|\n/)) reader.push(line);
  return reader.finish();
}
