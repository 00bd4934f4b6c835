/** Token ids of one residue string, and where the residues sit among them. */
export interface EncodedSequence {
  ids: number[];
  /** Position of the first residue token; residues fill `ids[residueStart, residueStart + residueCount)`. */
  residueStart: number;
  residueCount: number;
  /** Position of the start-of-sequence (CLS) token, or null when the family has none. */
  clsIndex: number | null;
}

/** A protein language model's tokenizer: one token per residue, plus the family's special tokens. */
export interface ProteinTokenizer {
  /** Id used to pad shorter sequences in a batch (masked out by attention_mask). */
  readonly padId: number;
  encode(residues: string): EncodedSequence;
}
