import { onnx } from 'onnx-proto';
import { seededRandom } from '@svc/domain';
import { valueInfo } from '../../src/onnx/onnx-graph';

/**
 * A tiny three-layer "protein encoder" built as a real ONNX graph, for tests. Its arithmetic is
 * simple enough to recompute by hand (see `tinyEncoderHiddenStates`):
 *
 *   layer 0: h0 = E[input_ids]                                   (embedding table, V x D)
 *   layer 1: h1 = tanh(h0 * w1 + b1)                             (w1, b1: per-dimension constants)
 *   layer 2: h2 = tanh(h1 * w2 + context)                        (w2: per-dimension constants)
 *            context = sum_t(mask_t * h0_t) / sum_t(mask_t)      (masked mean over the sequence)
 *
 * The context term mixes positions through attention_mask, like attention does, so a backend that
 * pads without masking (or a wrong mask) changes the results.
 */
export interface TinyEncoderWeights {
  vocabSize: number;
  dim: number;
  /** Row-major V x D. */
  embedding: number[];
  w1: number[];
  b1: number[];
  w2: number[];
}

/** `per_layer`: outputs hidden_state_0..2; `stacked`: one hidden_states [3, batch, seq, dim]. */
export type TinyEncoderLayout = 'per_layer' | 'stacked';

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

/** Deterministic weights in [-1, 1) from a seed (mulberry32). */
export function tinyEncoderWeights(input: {
  vocabSize: number;
  dim: number;
  seed: number;
}): TinyEncoderWeights {
  const random = seededRandom(input.seed);
  // Uniform in [-1, 1): the same numbers as scaling the 32-bit draw by 2^-31 and subtracting 1.
  const next = (): number => random() * 2 - 1;
  const values = (n: number): number[] => Array.from({ length: n }, () => Math.fround(next()));
  return {
    vocabSize: input.vocabSize,
    dim: input.dim,
    embedding: values(input.vocabSize * input.dim),
    w1: values(input.dim),
    b1: values(input.dim),
    w2: values(input.dim),
  };
}

function floatTensor(name: string, dims: number[], values: number[]): onnx.ITensorProto {
  return { name, dims, dataType: FLOAT, floatData: values };
}

function int64Tensor(name: string, values: number[]): onnx.ITensorProto {
  return { name, dims: [values.length], dataType: INT64, int64Data: values };
}

function node(
  opType: string,
  inputs: string[],
  outputs: string[],
  attribute: onnx.IAttributeProto[] = [],
): onnx.INodeProto {
  return { opType, input: inputs, output: outputs, name: outputs[0] ?? opType, attribute };
}

function encodeModel(graph: onnx.IGraphProto): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 14 }],
    producerName: 'tiny-encoder-test',
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

const INPUTS = [
  valueInfo('input_ids', INT64, ['batch', 'seq']),
  valueInfo('attention_mask', INT64, ['batch', 'seq']),
];

/** The serialized ONNX model (opset 14, IR 8) for `weights` in the given output layout. */
export function buildTinyEncoder(weights: TinyEncoderWeights, layout: TinyEncoderLayout): Uint8Array {
  const { vocabSize: v, dim: d } = weights;
  const nodes: onnx.INodeProto[] = [
    node(
      'Gather',
      ['E', 'input_ids'],
      ['h0'],
      [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
    ),
    node('Mul', ['h0', 'w1'], ['h0w1']),
    node('Add', ['h0w1', 'b1'], ['h1_pre']),
    node('Tanh', ['h1_pre'], ['h1']),
    node(
      'Cast',
      ['attention_mask'],
      ['mask_f'],
      [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: FLOAT }],
    ),
    node('Unsqueeze', ['mask_f', 'axis_2'], ['mask_3d']),
    node('Mul', ['h0', 'mask_3d'], ['h0_masked']),
    node(
      'ReduceSum',
      ['h0_masked', 'axis_1'],
      ['h0_sum'],
      [{ name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 1 }],
    ),
    node(
      'ReduceSum',
      ['mask_3d', 'axis_1'],
      ['mask_sum'],
      [{ name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 1 }],
    ),
    node('Div', ['h0_sum', 'mask_sum'], ['context']),
    node('Mul', ['h1', 'w2'], ['h1w2']),
    node('Add', ['h1w2', 'context'], ['h2_pre']),
    node('Tanh', ['h2_pre'], ['h2']),
  ];
  let outputs: onnx.IValueInfoProto[];
  if (layout === 'per_layer') {
    nodes.push(
      node('Identity', ['h0'], ['hidden_state_0']),
      node('Identity', ['h1'], ['hidden_state_1']),
      node('Identity', ['h2'], ['hidden_state_2']),
    );
    outputs = [0, 1, 2].map((i) => valueInfo(`hidden_state_${i}`, FLOAT, ['batch', 'seq', d]));
  } else {
    nodes.push(
      node('Unsqueeze', ['h0', 'axis_0'], ['s0']),
      node('Unsqueeze', ['h1', 'axis_0'], ['s1']),
      node('Unsqueeze', ['h2', 'axis_0'], ['s2']),
      node(
        'Concat',
        ['s0', 's1', 's2'],
        ['hidden_states'],
        [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      ),
    );
    outputs = [valueInfo('hidden_states', FLOAT, [3, 'batch', 'seq', d])];
  }
  return encodeModel({
    name: `tiny_encoder_${layout}`,
    node: nodes,
    initializer: [
      floatTensor('E', [v, d], weights.embedding),
      floatTensor('w1', [d], weights.w1),
      floatTensor('b1', [d], weights.b1),
      floatTensor('w2', [d], weights.w2),
      int64Tensor('axis_1', [1]),
      int64Tensor('axis_2', [2]),
      ...(layout === 'stacked' ? [int64Tensor('axis_0', [0])] : []),
    ],
    input: INPUTS,
    output: outputs,
  });
}

/** A valid ONNX model with the contract's inputs but an output the contract does not know. */
export function buildModelWithoutHiddenStates(weights: TinyEncoderWeights): Uint8Array {
  return encodeModel({
    name: 'logits_only',
    node: [
      node(
        'Gather',
        ['E', 'input_ids'],
        ['logits'],
        [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      ),
    ],
    initializer: [floatTensor('E', [weights.vocabSize, weights.dim], weights.embedding)],
    input: INPUTS,
    output: [valueInfo('logits', FLOAT, ['batch', 'seq', weights.dim])],
  });
}

/** A valid ONNX model whose only input is named `tokens` instead of `input_ids`. */
export function buildModelWithWrongInputs(weights: TinyEncoderWeights): Uint8Array {
  return encodeModel({
    name: 'wrong_inputs',
    node: [
      node(
        'Gather',
        ['E', 'tokens'],
        ['hidden_state_0'],
        [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      ),
    ],
    initializer: [floatTensor('E', [weights.vocabSize, weights.dim], weights.embedding)],
    input: [valueInfo('tokens', INT64, ['batch', 'seq'])],
    output: [valueInfo('hidden_state_0', FLOAT, ['batch', 'seq', weights.dim])],
  });
}

/** A model whose `hidden_states` output is the embedding lookup alone: rank 3 instead of 4. */
export function buildModelWithRank3HiddenStates(weights: TinyEncoderWeights): Uint8Array {
  return encodeModel({
    name: 'rank3_hidden_states',
    node: [
      node(
        'Gather',
        ['E', 'input_ids'],
        ['hidden_states'],
        [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      ),
    ],
    initializer: [floatTensor('E', [weights.vocabSize, weights.dim], weights.embedding)],
    input: INPUTS,
    output: [valueInfo('hidden_states', FLOAT, ['batch', 'seq', weights.dim])],
  });
}

/**
 * The graph's arithmetic redone in double precision for one unpadded sequence: `[layer][token]`
 * vectors, layer 0 first (the output layer is index 2).
 */
export function tinyEncoderHiddenStates(weights: TinyEncoderWeights, ids: readonly number[]): number[][][] {
  const { dim } = weights;
  const h0 = ids.map((id) => weights.embedding.slice(id * dim, (id + 1) * dim));
  const h1 = h0.map((row) => row.map((x, k) => Math.tanh(x * (weights.w1[k] ?? 0) + (weights.b1[k] ?? 0))));
  const context = Array.from(
    { length: dim },
    (_, k) => h0.reduce((sum, row) => sum + (row[k] ?? 0), 0) / h0.length,
  );
  const h2 = h1.map((row) => row.map((x, k) => Math.tanh(x * (weights.w2[k] ?? 0) + (context[k] ?? 0))));
  return [h0, h1, h2];
}
