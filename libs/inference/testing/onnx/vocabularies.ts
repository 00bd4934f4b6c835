import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A vocabulary laid out like ESM-2's vocab.txt (id = line index). */
// prettier-ignore
export const ESM_TEST_VOCAB = [
  '<cls>', '<pad>', '<eos>', '<unk>',
  'L', 'A', 'G', 'V', 'S', 'E', 'R', 'T', 'I', 'D', 'P', 'K', 'Q', 'N', 'F', 'Y', 'M', 'H', 'W', 'C',
  'X', 'B', 'U', 'Z', 'O', '.', '-', '<null_1>', '<mask>',
];

const STANDARD_RESIDUES = 'ACDEFGHIKLMNPQRSTVWY';

/** `<pad>` 0, `</s>` 1, `<unk>` 2, then one token per letter. */
function t5StyleVocab(tokens: readonly string[]): Record<string, number> {
  const entries: [string, number][] = [
    ['<pad>', 0],
    ['</s>', 1],
    ['<unk>', 2],
  ];
  tokens.forEach((token, i) => entries.push([token, 3 + i]));
  return Object.fromEntries(entries);
}

/** A ProtT5-style vocab.json: SentencePiece pieces `▁A` for residues, no pieces for U Z O B. */
export const T5_TEST_VOCAB = t5StyleVocab([...`${STANDARD_RESIDUES}X`].map((letter) => `\u2581${letter}`));

/** An Ankh-style vocab.json: bare residue letters, ids in a different order, no U. */
export const ANKH_TEST_VOCAB = t5StyleVocab([...`${STANDARD_RESIDUES}XBZO`].reverse());

/** Rows an embedding table needs for a vocab.json (largest id + 1). */
export function jsonVocabSize(vocab: Record<string, number>): number {
  return Math.max(...Object.values(vocab)) + 1;
}

/** Writes `files` (name -> content) into `dir`, creating it. */
export async function writeModelDir(dir: string, files: Record<string, string | Uint8Array>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
}

export const esmVocabText = (vocab: readonly string[] = ESM_TEST_VOCAB): string => `${vocab.join('\n')}\n`;
