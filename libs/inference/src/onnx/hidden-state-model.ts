import { InferenceSession, Tensor } from 'onnxruntime-node';
import { EmbeddingBackendError } from '../embedding-backend';

/** Contract names (docs/models.md). */
export const INPUT_IDS = 'input_ids';
export const ATTENTION_MASK = 'attention_mask';
export const STACKED_OUTPUT = 'hidden_states';
const PER_LAYER_OUTPUT = /^hidden_state_(\d+)$/;

/** How a model exposes its hidden states. */
export type HiddenStateLayout =
  /** One `hidden_states` output, float32 [num_layers, batch, seq, dim]. */
  | { kind: 'stacked' }
  /** Outputs `hidden_state_0` .. `hidden_state_{L-1}`, each float32 [batch, seq, dim]. */
  | { kind: 'per_layer'; layerCount: number };

/** The hidden states of one padded batch. Layers are addressed counting from the end (0 = last). */
export class HiddenStateBatch {
  constructor(
    /** Float32 data of each fetched layer, keyed by index from the end: [batch, seq, dim] row-major. */
    private readonly layers: ReadonlyMap<number, Float32Array>,
    readonly batchSize: number,
    readonly seqLength: number,
    readonly dim: number,
  ) {}

  /** The vector of token `token` of batch row `row` in layer `fromEnd` (a view, not a copy). */
  tokenVector(fromEnd: number, row: number, token: number): Float32Array {
    const data = this.layers.get(fromEnd);
    if (data === undefined) throw new RangeError(`layer ${fromEnd} (from the end) was not fetched`);
    const offset = (row * this.seqLength + token) * this.dim;
    return data.subarray(offset, offset + this.dim);
  }
}

function invalidModel(path: string, problem: string): EmbeddingBackendError {
  return new EmbeddingBackendError(
    'invalid_model',
    `${path} does not follow the ONNX embedding contract: ${problem}`,
  );
}

function describeShape(dims: readonly number[]): string {
  return `[${dims.join(', ')}]`;
}

/** Checks the declared inputs: exactly input_ids and attention_mask, int64 where declared. */
function checkInputs(session: InferenceSession, path: string): void {
  const names = [...session.inputNames].sort();
  if (names.length !== 2 || names[0] !== ATTENTION_MASK || names[1] !== INPUT_IDS) {
    throw invalidModel(
      path,
      `inputs must be exactly ${INPUT_IDS} and ${ATTENTION_MASK}, found ${names.join(', ') || 'none'}`,
    );
  }
  for (const meta of session.inputMetadata) {
    if (meta.isTensor && meta.type !== 'int64')
      throw invalidModel(path, `input ${meta.name} must be int64, found ${meta.type}`);
    if (meta.isTensor && meta.shape.length > 0 && meta.shape.length !== 2) {
      throw invalidModel(path, `input ${meta.name} must be [batch, seq], found rank ${meta.shape.length}`);
    }
  }
}

/** Works out the output layout from the declared outputs. */
function detectLayout(session: InferenceSession, path: string): HiddenStateLayout {
  const metaByName = new Map(session.outputMetadata.map((meta) => [meta.name, meta]));
  const checkFloat = (name: string, rank: number): void => {
    const meta = metaByName.get(name);
    if (meta?.isTensor !== true) return;
    if (meta.type !== 'float32')
      throw invalidModel(path, `output ${name} must be float32, found ${meta.type}`);
    if (meta.shape.length > 0 && meta.shape.length !== rank) {
      throw invalidModel(path, `output ${name} must have rank ${rank}, found rank ${meta.shape.length}`);
    }
  };
  if (session.outputNames.includes(STACKED_OUTPUT)) {
    checkFloat(STACKED_OUTPUT, 4);
    return { kind: 'stacked' };
  }
  const indices = session.outputNames
    .map((name) => PER_LAYER_OUTPUT.exec(name)?.[1])
    .filter((index): index is string => index !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  if (indices.length === 0) {
    throw invalidModel(
      path,
      `expected an output ${STACKED_OUTPUT} or outputs hidden_state_0..hidden_state_{L-1}, found ${session.outputNames.join(', ') || 'none'}`,
    );
  }
  indices.forEach((index, position) => {
    if (index !== position)
      throw invalidModel(
        path,
        `per-layer outputs must be numbered hidden_state_0..hidden_state_${indices.length - 1} without gaps`,
      );
    checkFloat(`hidden_state_${index}`, 3);
  });
  return { kind: 'per_layer', layerCount: indices.length };
}

/**
 * An onnxruntime session over a model that follows the embedding contract: token ids and an
 * attention mask in, the hidden states of every layer out.
 */
export class HiddenStateModel {
  private constructor(
    private readonly session: InferenceSession,
    readonly path: string,
    readonly layout: HiddenStateLayout,
  ) {}

  /** Opens `path` (by path, so weights stored as external data next to it are found). */
  static async load(path: string, options: { intraOpThreads?: number }): Promise<HiddenStateModel> {
    let session: InferenceSession;
    try {
      session = await InferenceSession.create(path, {
        executionProviders: ['cpu'],
        graphOptimizationLevel: 'all',
        ...(options.intraOpThreads === undefined ? {} : { intraOpNumThreads: options.intraOpThreads }),
      });
    } catch (error) {
      throw new EmbeddingBackendError(
        'invalid_model',
        `onnxruntime cannot load ${path}: ${(error as Error).message}`,
      );
    }
    try {
      checkInputs(session, path);
      return new HiddenStateModel(session, path, detectLayout(session, path));
    } catch (error) {
      await session.release();
      throw error;
    }
  }

  /** Number of layers, when the model declares it (always for per-layer outputs). */
  get declaredLayerCount(): number | null {
    if (this.layout.kind === 'per_layer') return this.layout.layerCount;
    const meta = this.session.outputMetadata.find((m) => m.name === STACKED_OUTPUT);
    const first = meta?.isTensor === true ? meta.shape[0] : undefined;
    return typeof first === 'number' ? first : null;
  }

  /**
   * Runs one padded batch: `ids` rows of equal length, `mask` 1 for real tokens and 0 for
   * padding. Only the layers in `layersFromEnd` are kept (and, for per-layer outputs, computed).
   */
  async run(input: {
    ids: BigInt64Array;
    mask: BigInt64Array;
    batchSize: number;
    seqLength: number;
    layersFromEnd: readonly number[];
  }): Promise<HiddenStateBatch> {
    const { batchSize, seqLength } = input;
    const dims = [batchSize, seqLength];
    const feeds = {
      [INPUT_IDS]: new Tensor('int64', input.ids, dims),
      [ATTENTION_MASK]: new Tensor('int64', input.mask, dims),
    };
    return this.layout.kind === 'stacked'
      ? this.runStacked(feeds, input)
      : this.runPerLayer(feeds, input, this.layout.layerCount);
  }

  private async runStacked(
    feeds: InferenceSession.FeedsType,
    input: { batchSize: number; seqLength: number; layersFromEnd: readonly number[] },
  ): Promise<HiddenStateBatch> {
    const output = (await this.session.run(feeds, [STACKED_OUTPUT]))[STACKED_OUTPUT];
    const tensor = this.checkTensor(STACKED_OUTPUT, output, 4, input);
    const [layerCount = 0, , , dim = 0] = tensor.dims;
    checkLayerIndices(input.layersFromEnd, layerCount, this.path);
    const layerSize = input.batchSize * input.seqLength * dim;
    const layers = new Map<number, Float32Array>();
    for (const fromEnd of input.layersFromEnd) {
      const layer = layerCount - 1 - fromEnd;
      layers.set(fromEnd, tensor.data.subarray(layer * layerSize, (layer + 1) * layerSize));
    }
    return new HiddenStateBatch(layers, input.batchSize, input.seqLength, dim);
  }

  private async runPerLayer(
    feeds: InferenceSession.FeedsType,
    input: { batchSize: number; seqLength: number; layersFromEnd: readonly number[] },
    layerCount: number,
  ): Promise<HiddenStateBatch> {
    checkLayerIndices(input.layersFromEnd, layerCount, this.path);
    const names = input.layersFromEnd.map((fromEnd) => `hidden_state_${layerCount - 1 - fromEnd}`);
    const outputs = await this.session.run(feeds, names);
    const layers = new Map<number, Float32Array>();
    let dim: number | undefined;
    input.layersFromEnd.forEach((fromEnd, k) => {
      const name = names[k] ?? '';
      const tensor = this.checkTensor(name, outputs[name], 3, input);
      const tensorDim = tensor.dims[2] ?? 0;
      if (dim !== undefined && dim !== tensorDim)
        throw invalidModel(this.path, `hidden-state outputs differ in width (${dim} and ${tensorDim})`);
      dim = tensorDim;
      layers.set(fromEnd, tensor.data);
    });
    return new HiddenStateBatch(layers, input.batchSize, input.seqLength, dim ?? 0);
  }

  /** A float32 tensor of the given rank whose [batch, seq] axes match the input. */
  private checkTensor(
    name: string,
    value: unknown,
    rank: number,
    input: { batchSize: number; seqLength: number },
  ): Tensor & { data: Float32Array } {
    if (!(value instanceof Tensor)) throw invalidModel(this.path, `output ${name} is not a tensor`);
    if (value.type !== 'float32' || !(value.data instanceof Float32Array))
      throw invalidModel(this.path, `output ${name} must be float32, got ${value.type}`);
    const dims = value.dims;
    const batchAxis = rank - 3;
    if (
      dims.length !== rank ||
      dims[batchAxis] !== input.batchSize ||
      dims[batchAxis + 1] !== input.seqLength
    ) {
      const expected =
        rank === 4
          ? `[num_layers, ${input.batchSize}, ${input.seqLength}, dim]`
          : `[${input.batchSize}, ${input.seqLength}, dim]`;
      throw invalidModel(this.path, `output ${name} has shape ${describeShape(dims)}, expected ${expected}`);
    }
    return value as Tensor & { data: Float32Array };
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

/** Layer indices count from the end and must name layers the model has. */
export function checkLayerIndices(layersFromEnd: readonly number[], layerCount: number, path: string): void {
  const outOfRange = layersFromEnd.filter(
    (index) => !Number.isInteger(index) || index < 0 || index >= layerCount,
  );
  if (outOfRange.length > 0) {
    throw new EmbeddingBackendError(
      'invalid_recipe',
      `layer_indices ${JSON.stringify(outOfRange)} are out of range: ${path} has ${layerCount} hidden-state layers (indices 0..${layerCount - 1}, counted from the end)`,
    );
  }
}
