import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { aggregateLayers, chunkWindows, poolSequenceEmbedding } from '@svc/domain';
import {
  type EmbeddingBackend,
  EmbeddingBackendError,
  type EmbeddingRecipe,
  type SequenceEmbedding,
} from '../embedding-backend';
import { loadAnkhTokenizer } from './ankh-tokenizer';
import { loadEsmTokenizer } from './esm-tokenizer';
import { type HiddenStateBatch, HiddenStateModel, checkLayerIndices } from './hidden-state-model';
import type { EncodedSequence, ProteinTokenizer } from './protein-tokenizer';
import { loadT5Tokenizer } from './t5-tokenizer';

export type OnnxModelFamily = 'esm' | 't5' | 'ankh';

export const ONNX_MODEL_FILE = 'model.onnx';

export interface OnnxEmbeddingBackendOptions {
  family: OnnxModelFamily;
  /** Directory holding one sub-directory per model_name (see docs/models.md). */
  modelsDir: string;
  /** onnxruntime intra-op threads per session; onnxruntime's default when unset. */
  intraOpThreads?: number;
  /** Sequences (or chunks) per session run; 8 when unset. */
  maxBatchSize?: number;
}

interface FamilySpec {
  description: string;
  /** Whether the family's sequences start with a CLS token (`cls` pooling needs one). */
  hasCls: boolean;
  loadTokenizer(modelDir: string): Promise<ProteinTokenizer>;
}

const FAMILIES: Record<OnnxModelFamily, FamilySpec> = {
  esm: {
    description:
      'ESM-2 protein language model exported to ONNX, run on CPU (vocab.txt; <cls> residues <eos>)',
    hasCls: true,
    loadTokenizer: loadEsmTokenizer,
  },
  t5: {
    description: 'ProtT5 encoder exported to ONNX, run on CPU (vocab.json; residues </s>, U Z O B read as X)',
    hasCls: false,
    loadTokenizer: loadT5Tokenizer,
  },
  ankh: {
    description: 'Ankh encoder exported to ONNX, run on CPU (vocab.json; residues </s>)',
    hasCls: false,
    loadTokenizer: loadAnkhTokenizer,
  },
};

interface LoadedModel {
  model: HiddenStateModel;
  tokenizer: ProteinTokenizer;
}

/** One piece of work: a chunk (or the whole, possibly truncated, sequence) of one input. */
interface WorkItem {
  sequence: number;
  chunk: number;
  encoded: EncodedSequence;
}

const DEFAULT_MAX_BATCH_SIZE = 8;

/**
 * Embeds protein sequences with an ONNX protein language model of one family (ESM-2, ProtT5 or
 * Ankh) through onnxruntime-node on CPU. Models live in `${modelsDir}/${model_name}/` as
 * `model.onnx` plus the family's vocabulary file and follow the contract in docs/models.md.
 * Sessions are opened on first use and kept until `close()`.
 */
export class OnnxEmbeddingBackend implements EmbeddingBackend {
  readonly name: OnnxModelFamily;
  readonly description: string;
  private readonly family: FamilySpec;
  private readonly maxBatchSize: number;
  private readonly models = new Map<string, Promise<LoadedModel>>();

  constructor(private readonly options: OnnxEmbeddingBackendOptions) {
    this.name = options.family;
    this.family = FAMILIES[options.family];
    this.description = this.family.description;
    this.maxBatchSize = options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
    if (!Number.isInteger(this.maxBatchSize) || this.maxBatchSize < 1)
      throw new RangeError(`maxBatchSize must be a positive integer, got ${this.maxBatchSize}`);
  }

  async embed(sequences: readonly string[], recipe: EmbeddingRecipe): Promise<SequenceEmbedding[]> {
    this.checkRecipe(recipe);
    const { model, tokenizer } = await this.loadModel(recipe.model_name);
    const declared = model.declaredLayerCount;
    if (declared !== null) checkLayerIndices(recipe.layer_indices, declared, model.path);

    const items = this.splitIntoItems(sequences, recipe, tokenizer);
    const results: Float32Array[][] = sequences.map(() => []);
    // Longest first, so each batch pads to similar lengths; results do not depend on batching.
    const ordered = [...items].sort((a, b) => b.encoded.ids.length - a.encoded.ids.length);
    for (let start = 0; start < ordered.length; start += this.maxBatchSize) {
      const batch = ordered.slice(start, start + this.maxBatchSize);
      const states = await this.runBatch(model, tokenizer, batch, recipe.layer_indices);
      batch.forEach((item, row) => {
        const target = results[item.sequence];
        if (target) target[item.chunk] = reduceItem(states, row, item.encoded, recipe);
      });
    }
    return results.map((chunks) => ({ chunks }));
  }

  async close(): Promise<void> {
    const loaded = [...this.models.values()];
    this.models.clear();
    const settled = await Promise.allSettled(loaded);
    for (const result of settled) if (result.status === 'fulfilled') await result.value.model.release();
  }

  private checkRecipe(recipe: EmbeddingRecipe): void {
    if (recipe.model_backend !== this.name) {
      throw new EmbeddingBackendError(
        'invalid_recipe',
        `the ${this.name} backend cannot run a recipe for model_backend '${recipe.model_backend}'`,
      );
    }
    const name = recipe.model_name;
    if (name === '' || name === '.' || name === '..' || basename(name) !== name || name.includes('\\')) {
      throw new EmbeddingBackendError(
        'invalid_recipe',
        `model_name ${JSON.stringify(name)} must name a directory inside the models directory`,
      );
    }
    if (recipe.pooling === 'cls' && !this.family.hasCls) {
      throw new EmbeddingBackendError(
        'invalid_recipe',
        `pooling 'cls' needs a model with a CLS token; ${this.name} models have none`,
      );
    }
    if (recipe.layer_indices.length === 0)
      throw new EmbeddingBackendError('invalid_recipe', 'layer_indices must not be empty');
    const problem = recipe.use_chunking
      ? chunkingProblem(recipe)
      : Number.isInteger(recipe.max_length) && recipe.max_length >= 1
        ? null
        : `max_length must be a positive integer, got ${recipe.max_length}`;
    if (problem !== null) throw new EmbeddingBackendError('invalid_recipe', problem);
  }

  private splitIntoItems(
    sequences: readonly string[],
    recipe: EmbeddingRecipe,
    tokenizer: ProteinTokenizer,
  ): WorkItem[] {
    const items: WorkItem[] = [];
    sequences.forEach((residues, sequence) => {
      if (residues.length === 0)
        throw new EmbeddingBackendError('invalid_sequence', `sequence ${sequence} is empty`);
      if (!recipe.use_chunking) {
        items.push({ sequence, chunk: 0, encoded: tokenizer.encode(residues.slice(0, recipe.max_length)) });
        return;
      }
      const windows = chunkWindows({
        length: residues.length,
        chunkSize: recipe.chunk_size,
        overlap: recipe.chunk_overlap,
      });
      windows.forEach(({ start, end }, chunk) =>
        items.push({ sequence, chunk, encoded: tokenizer.encode(residues.slice(start, end)) }),
      );
    });
    return items;
  }

  private async runBatch(
    model: HiddenStateModel,
    tokenizer: ProteinTokenizer,
    batch: readonly WorkItem[],
    layersFromEnd: readonly number[],
  ): Promise<HiddenStateBatch> {
    const seqLength = Math.max(...batch.map((item) => item.encoded.ids.length));
    const ids = new BigInt64Array(batch.length * seqLength).fill(BigInt(tokenizer.padId));
    const mask = new BigInt64Array(batch.length * seqLength);
    batch.forEach((item, row) => {
      item.encoded.ids.forEach((id, t) => {
        ids[row * seqLength + t] = BigInt(id);
        mask[row * seqLength + t] = 1n;
      });
    });
    return model.run({ ids, mask, batchSize: batch.length, seqLength, layersFromEnd });
  }

  private loadModel(modelName: string): Promise<LoadedModel> {
    let loading = this.models.get(modelName);
    if (loading === undefined) {
      loading = this.openModel(join(this.options.modelsDir, modelName));
      this.models.set(modelName, loading);
      // A failed load is not cached: the files may be put in place later.
      const pending = loading;
      pending.catch(() => {
        if (this.models.get(modelName) === pending) this.models.delete(modelName);
      });
    }
    return loading;
  }

  private async openModel(modelDir: string): Promise<LoadedModel> {
    const modelPath = join(modelDir, ONNX_MODEL_FILE);
    const dirStat = await stat(modelDir).catch(() => null);
    if (!dirStat?.isDirectory()) {
      throw new EmbeddingBackendError(
        'model_not_found',
        `model directory not found: ${modelDir} (expected ${modelPath} and the ${this.name} vocabulary file)`,
      );
    }
    const fileStat = await stat(modelPath).catch(() => null);
    if (!fileStat?.isFile())
      throw new EmbeddingBackendError('model_not_found', `ONNX model not found: ${modelPath}`);
    const tokenizer = await this.family.loadTokenizer(modelDir);
    const model = await HiddenStateModel.load(modelPath, { intraOpThreads: this.options.intraOpThreads });
    return { model, tokenizer };
  }
}

function chunkingProblem(recipe: EmbeddingRecipe): string | null {
  if (!Number.isInteger(recipe.chunk_size) || recipe.chunk_size < 1) {
    return `chunk_size must be a positive integer, got ${recipe.chunk_size}`;
  }
  if (
    !Number.isInteger(recipe.chunk_overlap) ||
    recipe.chunk_overlap < 0 ||
    recipe.chunk_overlap >= recipe.chunk_size
  ) {
    return `chunk_overlap must be an integer from 0 to chunk_size - 1, got ${recipe.chunk_overlap}`;
  }
  return null;
}

/** One item's final vector from its rows of the batch's hidden states. */
function reduceItem(
  states: HiddenStateBatch,
  row: number,
  encoded: EncodedSequence,
  recipe: EmbeddingRecipe,
): Float32Array {
  const tokenVector = (token: number): Float32Array =>
    aggregateLayers({
      layers: recipe.layer_indices.map((fromEnd) => states.tokenVector(fromEnd, row, token)),
      layerIndices: recipe.layer_indices,
      agg: recipe.layer_agg,
    });
  const isCls = recipe.pooling === 'cls';
  const residues = isCls
    ? []
    : Array.from({ length: encoded.residueCount }, (_, i) => tokenVector(encoded.residueStart + i));
  const cls = isCls && encoded.clsIndex !== null ? tokenVector(encoded.clsIndex) : undefined;
  return poolSequenceEmbedding({
    residues,
    cls,
    pooling: recipe.pooling,
    normalizeResidues: recipe.normalize_residues,
    normalize: recipe.normalize,
    scale: recipe.embedding_scale,
  });
}
