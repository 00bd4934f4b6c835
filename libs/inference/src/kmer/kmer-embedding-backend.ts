import { chunkWindows, clearKmerSpectrumCache, embedKmerBatch, KmerSpectrumSpec } from '@svc/domain';
import {
  EmbeddingBackend,
  EmbeddingBackendError,
  EmbeddingRecipe,
  SequenceEmbedding,
} from '../embedding-backend';
import { KMER_RECIPES } from './kmer-recipes';

/**
 * The built-in backend: alignment-free k-mer spectra computed in process, no model weights.
 *
 * Recipe fields: `model_name` names a k-mer recipe (KMER_RECIPES); `normalize` scales each vector
 * to unit length, `embedding_scale` multiplies it afterwards; `use_chunking` embeds windows of
 * `chunk_size` residues overlapping by `chunk_overlap` (the last window ends at the sequence end),
 * one vector each; without chunking the first `max_length` residues are embedded. `layer_indices`,
 * `layer_agg`, `pooling` and `normalize_residues` describe neural models and are ignored: a k-mer
 * spectrum has no layers and no per-residue vectors.
 */
export class KmerEmbeddingBackend implements EmbeddingBackend {
  readonly name = 'kmer';
  readonly description = `Hashed, background-centred k-mer spectra; no model weights. Recipes: ${Object.keys(KMER_RECIPES).join(', ')}`;

  constructor(private readonly recipes: Readonly<Record<string, KmerSpectrumSpec>> = KMER_RECIPES) {}

  async embed(sequences: readonly string[], recipe: EmbeddingRecipe): Promise<SequenceEmbedding[]> {
    const spec = this.specFor(recipe);
    const pieces: string[] = [];
    const chunkCounts = sequences.map((sequence) => {
      const windows = recipe.use_chunking
        ? this.windows(sequence.length, recipe)
        : [{ start: 0, end: Math.min(sequence.length, recipe.max_length) }];
      for (const window of windows) pieces.push(sequence.slice(window.start, window.end));
      return windows.length;
    });
    const vectors = embedKmerBatch({ sequences: pieces, spec, normalize: recipe.normalize });
    if (recipe.embedding_scale !== 1) {
      for (const vector of vectors)
        for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! * recipe.embedding_scale;
    }
    let next = 0;
    return chunkCounts.map((count) => ({ chunks: vectors.slice(next, (next += count)) }));
  }

  async close(): Promise<void> {
    clearKmerSpectrumCache();
  }

  private specFor(recipe: EmbeddingRecipe): KmerSpectrumSpec {
    if (recipe.model_backend !== 'kmer') {
      throw new EmbeddingBackendError(
        'invalid_model',
        `the kmer backend cannot run a ${recipe.model_backend} recipe`,
      );
    }
    const spec = Object.hasOwn(this.recipes, recipe.model_name) ? this.recipes[recipe.model_name] : undefined;
    if (spec === undefined) {
      const known = Object.keys(this.recipes).join(', ');
      throw new EmbeddingBackendError(
        'model_not_found',
        `no k-mer recipe named '${recipe.model_name}' (known: ${known})`,
      );
    }
    if (!recipe.use_chunking && !(Number.isInteger(recipe.max_length) && recipe.max_length >= 1)) {
      throw new EmbeddingBackendError(
        'invalid_recipe',
        `max_length must be a positive integer, got ${recipe.max_length}`,
      );
    }
    if (!(Number.isFinite(recipe.embedding_scale) && recipe.embedding_scale > 0)) {
      throw new EmbeddingBackendError(
        'invalid_recipe',
        `embedding_scale must be a positive number, got ${recipe.embedding_scale}`,
      );
    }
    return spec;
  }

  private windows(length: number, recipe: EmbeddingRecipe): { start: number; end: number }[] {
    try {
      return chunkWindows({ length, chunkSize: recipe.chunk_size, overlap: recipe.chunk_overlap });
    } catch (error) {
      if (error instanceof RangeError) throw new EmbeddingBackendError('invalid_recipe', error.message);
      throw error;
    }
  }
}
