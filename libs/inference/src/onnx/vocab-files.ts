import { readFile } from 'node:fs/promises';
import { EmbeddingBackendError } from '../embedding-backend';

async function readVocabText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new EmbeddingBackendError('model_not_found', `vocabulary file not found: ${path}`);
    }
    throw new EmbeddingBackendError(
      'invalid_model',
      `cannot read vocabulary file ${path}: ${(error as Error).message}`,
    );
  }
}

/**
 * A `vocab.txt` vocabulary: one token per line, the id is the line index (the format the
 * Hugging Face ESM tokenizer saves). A trailing newline does not add a token.
 */
export async function readLineVocab(path: string): Promise<Map<string, number>> {
  const lines = (await readVocabText(path)).split('\n').map((line) => line.replace(/\r$/, ''));
  if (lines.at(-1) === '') lines.pop();
  const vocab = new Map<string, number>();
  lines.forEach((token, id) => {
    if (!vocab.has(token)) vocab.set(token, id);
  });
  return vocab;
}

/** A `vocab.json` vocabulary: one JSON object mapping each token to its integer id. */
export async function readJsonVocab(path: string): Promise<Map<string, number>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readVocabText(path));
  } catch (error) {
    if (error instanceof EmbeddingBackendError) throw error;
    throw new EmbeddingBackendError(
      'invalid_model',
      `vocabulary file ${path} is not valid JSON: ${(error as Error).message}`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new EmbeddingBackendError(
      'invalid_model',
      `vocabulary file ${path} must hold a JSON object of token -> id`,
    );
  }
  const vocab = new Map<string, number>();
  for (const [token, id] of Object.entries(parsed)) {
    if (!Number.isInteger(id) || (id as number) < 0) {
      throw new EmbeddingBackendError(
        'invalid_model',
        `vocabulary file ${path}: token ${JSON.stringify(token)} has id ${JSON.stringify(id)}, not a non-negative integer`,
      );
    }
    vocab.set(token, id as number);
  }
  return vocab;
}

/** The id of a special token the family cannot work without. */
export function requireTokenId(vocab: ReadonlyMap<string, number>, token: string, path: string): number {
  const id = vocab.get(token);
  if (id === undefined)
    throw new EmbeddingBackendError('invalid_model', `vocabulary file ${path} has no ${token} token`);
  return id;
}
