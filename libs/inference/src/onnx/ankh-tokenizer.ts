import { join } from 'node:path';
import { SentencePieceProteinTokenizer } from './sentencepiece-tokenizer';
import { readJsonVocab } from './vocab-files';

export const ANKH_VOCAB_FILE = 'vocab.json';

/**
 * Ankh tokenisation: one token per residue and `</s>` (see SentencePieceProteinTokenizer), with
 * the residues passed through unchanged: unlike ProtT5 there is no rare-residue rewrite, so a
 * letter the vocabulary lacks becomes `<unk>`. No CLS token.
 */
export class AnkhTokenizer extends SentencePieceProteinTokenizer {
  constructor(vocab: ReadonlyMap<string, number>, source = ANKH_VOCAB_FILE) {
    super(vocab, source);
  }

  protected override mapResidues(residues: string): string {
    return residues;
  }
}

export async function loadAnkhTokenizer(modelDir: string): Promise<AnkhTokenizer> {
  const path = join(modelDir, ANKH_VOCAB_FILE);
  return new AnkhTokenizer(await readJsonVocab(path), path);
}
