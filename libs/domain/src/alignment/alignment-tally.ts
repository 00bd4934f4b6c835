import { SUBSTITUTION_SCORES, SUBSTITUTION_WIDTH, UNKNOWN_RESIDUE_CODE } from './blosum62';
import type { AlignmentResult } from './alignment-types';

/** The two sequences of an alignment, as text and as matrix indices. */
export interface EncodedPair {
  a: string;
  b: string;
  codesA: Uint8Array;
  codesB: Uint8Array;
}

/**
 * Counts the columns of an alignment while a traceback emits them (last column first), and
 * optionally keeps the rows. The counting rules are EMBOSS's (see AlignmentResult).
 */
export class AlignmentTally {
  private identical = 0;
  private similar = 0;
  private gaps = 0;
  private length = 0;
  private readonly rowA: string[] | null;
  private readonly rowB: string[] | null;

  constructor(
    private readonly pair: EncodedPair,
    keepRows: boolean,
  ) {
    this.rowA = keepRows ? [] : null;
    this.rowB = keepRows ? [] : null;
  }

  /** Column pairing a[i] with b[j]. */
  match(i: number, j: number): void {
    const codeA = this.pair.codesA[i] ?? UNKNOWN_RESIDUE_CODE;
    const codeB = this.pair.codesB[j] ?? UNKNOWN_RESIDUE_CODE;
    this.length += 1;
    if (codeA === codeB && codeA !== UNKNOWN_RESIDUE_CODE) this.identical += 1;
    if ((SUBSTITUTION_SCORES[codeA * SUBSTITUTION_WIDTH + codeB] ?? 0) > 0) this.similar += 1;
    this.rowA?.push(this.pair.a.charAt(i));
    this.rowB?.push(this.pair.b.charAt(j));
  }

  /** Column with a[i] against a gap. */
  gapInB(i: number): void {
    this.length += 1;
    this.gaps += 1;
    this.rowA?.push(this.pair.a.charAt(i));
    this.rowB?.push('-');
  }

  /** Column with b[j] against a gap. */
  gapInA(j: number): void {
    this.length += 1;
    this.gaps += 1;
    this.rowA?.push('-');
    this.rowB?.push(this.pair.b.charAt(j));
  }

  result(score: number): AlignmentResult {
    const length = this.length;
    const result: AlignmentResult = {
      score,
      identity: length === 0 ? 0 : this.identical / length,
      similarity: length === 0 ? 0 : this.similar / length,
      gapsPct: length === 0 ? 0 : (100 * this.gaps) / length,
      alignmentLength: length,
      identical: this.identical,
      similar: this.similar,
      gaps: this.gaps,
    };
    if (this.rowA !== null && this.rowB !== null)
      result.aligned = { a: this.rowA.reverse().join(''), b: this.rowB.reverse().join('') };
    return result;
  }
}
