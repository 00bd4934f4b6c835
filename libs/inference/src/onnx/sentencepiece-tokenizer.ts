import type { EncodedSequence, ProteinTokenizer } from './protein-tokenizer';
import { requireTokenId } from './vocab-files';

/**
 * Tokenisation shared by the T5-family protein models (ProtT5, Ankh), whose vocabularies come
 * from SentencePiece: one token per residue, then `</s>`, no start token (residues begin at
 * position 0). A residue's token is the letter itself, or the word-initial piece `▁X` that
 * SentencePiece produces for a space-separated residue. A letter in neither form becomes `<unk>`;
 * padding uses `<pad>`. Families differ in how they rewrite residues first (`mapResidues`).
 */
export abstract class SentencePieceProteinTokenizer implements ProteinTokenizer {
  readonly padId: number;
  private readonly eosId: number;
  private readonly unkId: number;

  protected constructor(
    private readonly vocab: ReadonlyMap<string, number>,
    source: string,
  ) {
    this.padId = requireTokenId(vocab, '<pad>', source);
    this.eosId = requireTokenId(vocab, '</s>', source);
    this.unkId = requireTokenId(vocab, '<unk>', source);
  }

  /** The residue string the family actually feeds its model. */
  protected abstract mapResidues(residues: string): string;

  encode(residues: string): EncodedSequence {
    const ids: number[] = [];
    for (const letter of this.mapResidues(residues)) {
      ids.push(this.vocab.get(letter) ?? this.vocab.get(`\u2581${letter}`) ?? this.unkId);
    }
    ids.push(this.eosId);
    return { ids, residueStart: 0, residueCount: ids.length - 1, clsIndex: null };
  }
}
