import { join } from 'node:path';
import type { EncodedSequence, ProteinTokenizer } from './protein-tokenizer';
import { readLineVocab, requireTokenId } from './vocab-files';

export const ESM_VOCAB_FILE = 'vocab.txt';

/**
 * ESM-2 tokenisation, as the Hugging Face ESM tokenizer does it for a residue string:
 * `<cls>` + one token per residue + `<eos>`. A letter missing from the vocabulary becomes `<unk>`.
 * Padding uses `<pad>`.
 */
export class EsmTokenizer implements ProteinTokenizer {
  readonly padId: number;
  private readonly clsId: number;
  private readonly eosId: number;
  private readonly unkId: number;

  constructor(
    private readonly vocab: ReadonlyMap<string, number>,
    source = ESM_VOCAB_FILE,
  ) {
    this.clsId = requireTokenId(vocab, '<cls>', source);
    this.padId = requireTokenId(vocab, '<pad>', source);
    this.eosId = requireTokenId(vocab, '<eos>', source);
    this.unkId = requireTokenId(vocab, '<unk>', source);
  }

  encode(residues: string): EncodedSequence {
    const ids = [this.clsId];
    for (const letter of residues) ids.push(this.vocab.get(letter) ?? this.unkId);
    ids.push(this.eosId);
    return { ids, residueStart: 1, residueCount: ids.length - 2, clsIndex: 0 };
  }
}

export async function loadEsmTokenizer(modelDir: string): Promise<EsmTokenizer> {
  const path = join(modelDir, ESM_VOCAB_FILE);
  return new EsmTokenizer(await readLineVocab(path), path);
}
