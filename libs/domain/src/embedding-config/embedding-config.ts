import { canonicalJson } from '../jobs/canonical-json';
import { uuidV5 } from './uuid-v5';

export const EMBEDDING_BACKENDS = ['kmer', 'esm', 't5', 'ankh'] as const;
export const LAYER_AGGREGATIONS = ['mean', 'last', 'concat'] as const;
export const POOLINGS = ['mean', 'max', 'cls', 'mean_max'] as const;

/** Fixed namespace of embedding-config ids: the same recipe has the same id on every installation. */
export const EMBEDDING_CONFIG_NAMESPACE = '6f1d3c2e-8a4b-5e7f-9c0d-2b3a4f5e6d7c';

export interface CanonicalEmbeddingConfig {
  id: string;
  model_name: string;
  model_backend: (typeof EMBEDDING_BACKENDS)[number];
  layer_indices: number[];
  layer_agg: (typeof LAYER_AGGREGATIONS)[number];
  pooling: (typeof POOLINGS)[number];
  normalize_residues: boolean;
  normalize: boolean;
  max_length: number;
  use_chunking: boolean;
  chunk_size: number;
  chunk_overlap: number;
  embedding_scale: number;
  description: string | null;
}

export type EmbeddingRecipeFields = Omit<CanonicalEmbeddingConfig, 'id' | 'description'>;

export type EmbeddingBackendName = (typeof EMBEDDING_BACKENDS)[number];

/** The model names each backend can run here (k-mer recipes, installed ONNX model folders). */
export type AvailableEmbeddingModels = Readonly<Record<EmbeddingBackendName, readonly string[]>>;

/**
 * Why a backend cannot run `model_name`, naming the models it can run; null when it can. A config
 * no worker could embed with would only fail every compute job later (`model_not_found`).
 */
export function embeddingModelProblem(input: {
  backend: EmbeddingBackendName;
  modelName: string;
  available: AvailableEmbeddingModels;
}): string | null {
  const names = input.available[input.backend];
  if (names.includes(input.modelName)) return null;
  const kind = input.backend === 'kmer' ? 'k-mer recipe' : `installed ${input.backend} model`;
  const known = names.length > 0 ? `one of ${names.join(', ')}` : 'none is available';
  return `model_name '${input.modelName}' is not a known ${kind} (${known})`;
}

/** What a recipe's optional fields are when a config leaves them out. */
export const EMBEDDING_RECIPE_DEFAULTS: Readonly<
  Omit<EmbeddingRecipeFields, 'model_name' | 'model_backend'>
> = {
  layer_indices: [0],
  layer_agg: 'mean',
  pooling: 'mean',
  normalize_residues: false,
  normalize: true,
  max_length: 1022,
  use_chunking: false,
  chunk_size: 1000,
  chunk_overlap: 0,
  embedding_scale: 1,
};

const KNOWN = new Set([
  'model_name',
  'model_backend',
  'description',
  ...Object.keys(EMBEDDING_RECIPE_DEFAULTS),
]);

/**
 * Validates an embedding recipe and fills its defaults. Every problem is listed (not only the
 * first), so a client fixes a bad config in one round. With `available`, `model_name` must also be
 * a model its backend can run. The id is derived from the recipe (UUIDv5 over its canonical JSON,
 * description excluded).
 */
export function canonicalizeEmbeddingConfig(
  input: unknown,
  available?: AvailableEmbeddingModels,
): { config: CanonicalEmbeddingConfig } | { errors: string[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { errors: ['the body must be a JSON object'] };
  const raw = input as Record<string, unknown>;
  const errors: string[] = [];
  for (const key of Object.keys(raw)) if (!KNOWN.has(key)) errors.push(`unknown field '${key}'`);
  const value = <T>(key: string, fallback: T): unknown => (raw[key] === undefined ? fallback : raw[key]);

  const modelName = raw['model_name'];
  const isNameWellFormed =
    typeof modelName === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(modelName);
  if (!isNameWellFormed) {
    errors.push(
      'model_name must be 1-200 letters, digits, dot, dash or underscore (it names a model folder)',
    );
  }
  const backend = value('model_backend', 'kmer');
  const isKnownBackend = EMBEDDING_BACKENDS.includes(backend as never);
  if (!isKnownBackend) errors.push(`model_backend must be one of ${EMBEDDING_BACKENDS.join(', ')}`);
  else if (available !== undefined && isNameWellFormed) {
    const problem = embeddingModelProblem({
      backend: backend as EmbeddingBackendName,
      modelName,
      available,
    });
    if (problem !== null) errors.push(problem);
  }
  const layers = value('layer_indices', EMBEDDING_RECIPE_DEFAULTS.layer_indices);
  if (
    !Array.isArray(layers) ||
    layers.length === 0 ||
    layers.some((l) => !Number.isInteger(l) || (l as number) < 0 || (l as number) > 128) ||
    new Set(layers).size !== layers.length
  ) {
    errors.push('layer_indices must be a non-empty list of distinct integers from 0 (last layer) to 128');
  }
  const agg = value('layer_agg', EMBEDDING_RECIPE_DEFAULTS.layer_agg);
  if (!LAYER_AGGREGATIONS.includes(agg as never))
    errors.push(`layer_agg must be one of ${LAYER_AGGREGATIONS.join(', ')}`);
  const pooling = value('pooling', EMBEDDING_RECIPE_DEFAULTS.pooling);
  if (!POOLINGS.includes(pooling as never)) errors.push(`pooling must be one of ${POOLINGS.join(', ')}`);
  if (pooling === 'cls' && (backend === 't5' || backend === 'ankh'))
    errors.push(`pooling 'cls' needs a model with a CLS token; ${String(backend)} has none`);
  for (const key of ['normalize_residues', 'normalize', 'use_chunking'] as const) {
    if (typeof value(key, EMBEDDING_RECIPE_DEFAULTS[key]) !== 'boolean')
      errors.push(`${key} must be true or false`);
  }
  const maxLength = value('max_length', EMBEDDING_RECIPE_DEFAULTS.max_length);
  if (!Number.isInteger(maxLength) || (maxLength as number) < 1 || (maxLength as number) > 100_000)
    errors.push('max_length must be an integer from 1 to 100000');
  const chunkSize = value('chunk_size', EMBEDDING_RECIPE_DEFAULTS.chunk_size);
  if (!Number.isInteger(chunkSize) || (chunkSize as number) < 1 || (chunkSize as number) > 100_000)
    errors.push('chunk_size must be an integer from 1 to 100000');
  const overlap = value('chunk_overlap', EMBEDDING_RECIPE_DEFAULTS.chunk_overlap);
  if (!Number.isInteger(overlap) || (overlap as number) < 0)
    errors.push('chunk_overlap must be a non-negative integer');
  else if (Number.isInteger(chunkSize) && (overlap as number) >= (chunkSize as number))
    errors.push('chunk_overlap must be smaller than chunk_size');
  const scale = value('embedding_scale', EMBEDDING_RECIPE_DEFAULTS.embedding_scale);
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0)
    errors.push('embedding_scale must be a positive finite number');
  const description = value('description', null);
  if (description !== null && (typeof description !== 'string' || description.length > 2000))
    errors.push('description must be text up to 2000 characters or null');
  if (errors.length > 0) return { errors };

  const recipe: EmbeddingRecipeFields = {
    model_name: modelName as string,
    model_backend: backend as EmbeddingRecipeFields['model_backend'],
    layer_indices: [...(layers as number[])],
    layer_agg: agg as EmbeddingRecipeFields['layer_agg'],
    pooling: pooling as EmbeddingRecipeFields['pooling'],
    normalize_residues: value('normalize_residues', EMBEDDING_RECIPE_DEFAULTS.normalize_residues) as boolean,
    normalize: value('normalize', EMBEDDING_RECIPE_DEFAULTS.normalize) as boolean,
    max_length: maxLength as number,
    use_chunking: value('use_chunking', EMBEDDING_RECIPE_DEFAULTS.use_chunking) as boolean,
    chunk_size: chunkSize as number,
    chunk_overlap: overlap as number,
    embedding_scale: scale as number,
  };
  return {
    config: {
      id: uuidV5(canonicalJson(recipe), EMBEDDING_CONFIG_NAMESPACE),
      ...recipe,
      description: description === null ? null : (description as string).trim() || null,
    },
  };
}
