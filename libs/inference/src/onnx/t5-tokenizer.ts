import { join } from 'node:path';
import { SentencePieceProteinTokenizer } from './sentencepiece-tokenizer';
import { readJsonVocab } from './vocab-files';

export const T5_VOCAB_FILE = 'vocab.json';

/** Rare residues ProtT5 was trained without: its published recipe maps them to X. */
const PROT_T5_RARE_RESIDUES = /[UZOB]/g;

/**
 * ProtT5 tokenisation: U, Z, O and B become X, then one token per residue and `</s>` (see
 * SentencePieceProteinTokenizer). No CLS token.
 */
export class T5Tokenizer extends SentencePieceProteinTokenizer {
  constructor(vocab: ReadonlyMap<string, number>, source = T5_VOCAB_FILE) {
    super(vocab, source);
  }

  protected override mapResidues(residues: string): string {
    return residues.replace(PROT_T5_RARE_RESIDUES, 'X');
  }
}

export async function loadT5Tokenizer(modelDir: string): Promise<T5Tokenizer> {
  const path = join(modelDir, T5_VOCAB_FILE);
  return new T5Tokenizer(await readJsonVocab(path), path);
}
