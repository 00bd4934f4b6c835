import type { EmbeddingBackendErrorCode } from '@svc/contracts';
import type { EmbeddingRecipeFields } from '@svc/domain';
/**
 * An embedding recipe as the backends see it (the canonical EmbeddingConfig without id and
 * description). Layer indices count from the end: 0 is the last hidden layer, 1 the one before.
 */
export type EmbeddingRecipe = EmbeddingRecipeFields;

/** One sequence's vectors: one per chunk (a single entry when chunking is off). */
export interface SequenceEmbedding {
  chunks: Float32Array[];
}

export class EmbeddingBackendError extends Error {
  constructor(
    /** Stable job error code, e.g. `model_not_found`, `invalid_model`. */
    readonly code: EmbeddingBackendErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EmbeddingBackendError';
  }
}

export interface EmbeddingBackend {
  /** Registry name (`kmer`, `esm`, `t5`, `ankh`). */
  readonly name: string;
  /** Human-readable summary for the plugin registry. */
  readonly description: string;
  /**
   * Embeds sequences (upper-case amino-acid strings) with a recipe. Throws EmbeddingBackendError
   * with a stable code when the model cannot be used.
   */
  embed(sequences: readonly string[], recipe: EmbeddingRecipe): Promise<SequenceEmbedding[]>;
  /** Releases sessions and caches. */
  close(): Promise<void>;
}
