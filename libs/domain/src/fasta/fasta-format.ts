import { createHash } from 'node:crypto';

/** Lower-case hex MD5 of the sequence text as given (pass the normalised FastaRecord.sequence). */
export function md5Hex(sequence: string): string {
  return createHash('md5').update(sequence, 'utf8').digest('hex');
}

/** Cuts a sequence into lines of `width` residues (the last may be shorter); '' gives []. */
export function wrapSequence(sequence: string, width = 60): string[] {
  if (!Number.isInteger(width) || width < 1)
    throw new RangeError(`width must be a positive integer, got ${width}`);
  const lines: string[] = [];
  for (let start = 0; start < sequence.length; start += width)
    lines.push(sequence.slice(start, start + width));
  return lines;
}

/**
 * One FASTA record: '>' + header, then the wrapped sequence, each line ending in '\n' so that records
 * can be concatenated. `header` is given without '>'.
 */
export function formatFastaRecord(header: string, sequence: string, width = 60): string {
  if (/[\r\n]/.test(header)) throw new RangeError('FASTA header contains a line break');
  return [`>${header}`, ...wrapSequence(sequence, width)].map((line) => `${line}\n`).join('');
}
