/** @jest-environment ./libs/inference/testing/typed-array-environment.cjs */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmbeddingRecipe, EmbeddingBackendError } from '../embedding-backend';
import { OnnxEmbeddingBackend, type OnnxModelFamily } from './onnx-embedding-backend';
import { referenceEmbedding } from '../../testing/onnx/reference-embedding';
import {
  buildModelWithoutHiddenStates,
  buildModelWithRank3HiddenStates,
  buildModelWithWrongInputs,
  buildTinyEncoder,
  type TinyEncoderLayout,
  type TinyEncoderWeights,
  tinyEncoderHiddenStates,
  tinyEncoderWeights,
} from '../../testing/onnx/tiny-encoder';
import {
  ANKH_TEST_VOCAB,
  ESM_TEST_VOCAB,
  T5_TEST_VOCAB,
  esmVocabText,
  jsonVocabSize,
  writeModelDir,
} from '../../testing/onnx/vocabularies';

const TOLERANCE = 1e-5;
const DIM = 4;

/** Expected tokenisation, written out from the vocabulary tables. */
interface ExpectedTokens {
  ids: number[];
  residueTokens: number[];
  clsToken: number | null;
}

interface FamilyFixture {
  family: OnnxModelFamily;
  vocabFiles: Record<string, string>;
  vocabSize: number;
  tokenize(residues: string): ExpectedTokens;
}

const range = (from: number, count: number): number[] => Array.from({ length: count }, (_, i) => from + i);

const FAMILIES: Record<OnnxModelFamily, FamilyFixture> = {
  esm: {
    family: 'esm',
    vocabFiles: { 'vocab.txt': esmVocabText() },
    vocabSize: ESM_TEST_VOCAB.length,
    tokenize: (residues) => {
      const id = (token: string): number => ESM_TEST_VOCAB.indexOf(token);
      const residueIds = [...residues].map((letter) => (id(letter) >= 0 ? id(letter) : id('<unk>')));
      return {
        ids: [id('<cls>'), ...residueIds, id('<eos>')],
        residueTokens: range(1, residues.length),
        clsToken: 0,
      };
    },
  },
  t5: {
    family: 't5',
    vocabFiles: { 'vocab.json': JSON.stringify(T5_TEST_VOCAB) },
    vocabSize: jsonVocabSize(T5_TEST_VOCAB),
    tokenize: (residues) => {
      const residueIds = [...residues].map((letter) => {
        const read = 'UZOB'.includes(letter) ? 'X' : letter;
        return T5_TEST_VOCAB[`\u2581${read}`] ?? T5_TEST_VOCAB['<unk>'] ?? -1;
      });
      return {
        ids: [...residueIds, T5_TEST_VOCAB['</s>'] ?? -1],
        residueTokens: range(0, residues.length),
        clsToken: null,
      };
    },
  },
  ankh: {
    family: 'ankh',
    vocabFiles: { 'vocab.json': JSON.stringify(ANKH_TEST_VOCAB) },
    vocabSize: jsonVocabSize(ANKH_TEST_VOCAB),
    tokenize: (residues) => {
      const residueIds = [...residues].map(
        (letter) => ANKH_TEST_VOCAB[letter] ?? ANKH_TEST_VOCAB['<unk>'] ?? -1,
      );
      return {
        ids: [...residueIds, ANKH_TEST_VOCAB['</s>'] ?? -1],
        residueTokens: range(0, residues.length),
        clsToken: null,
      };
    },
  },
};

// J is in no vocabulary; U is its own token for ESM, X for ProtT5 and <unk> for Ankh.
const SEQUENCES = ['MKTAYIAKQRQISFVKSHFSRQ', 'GAV', 'M', 'WCJHUB', 'PEPTIDEPEPTIDEPEPTIDE'];

const LAYOUTS: TinyEncoderLayout[] = ['per_layer', 'stacked'];
const LAYER_SETS = [[0], [2, 0], [1, 2, 0]];
const SCALES = [1, 2.5, 0.5];

let root: string;
const weightsByFamily = new Map<OnnxModelFamily, TinyEncoderWeights>();
let maxAbsError = 0;

const modelName = (family: OnnxModelFamily, layout: TinyEncoderLayout): string => `${family}-${layout}`;

function recipeFor(
  family: OnnxModelFamily,
  layout: TinyEncoderLayout,
  overrides: Partial<EmbeddingRecipe> = {},
): EmbeddingRecipe {
  return {
    model_name: modelName(family, layout),
    model_backend: family,
    layer_indices: [0],
    layer_agg: 'mean',
    pooling: 'mean',
    normalize_residues: false,
    normalize: false,
    max_length: 1000,
    use_chunking: false,
    chunk_size: 1000,
    chunk_overlap: 0,
    embedding_scale: 1,
    ...overrides,
  };
}

/** The expected vector for `residues` (already truncated or chunked) under `recipe`. */
function expectedVector(family: OnnxModelFamily, residues: string, recipe: EmbeddingRecipe): number[] {
  const weights = weightsByFamily.get(family);
  if (weights === undefined) throw new Error(`no weights for ${family}`);
  const tokens = FAMILIES[family].tokenize(residues);
  return referenceEmbedding({
    layers: tinyEncoderHiddenStates(weights, tokens.ids),
    residueTokens: tokens.residueTokens,
    clsToken: tokens.clsToken,
    recipe,
  });
}

function expectClose(actual: Float32Array | undefined, expected: number[]): void {
  expect(actual).toBeInstanceOf(Float32Array);
  expect(actual).toHaveLength(expected.length);
  let worst = 0;
  expected.forEach((value, i) => {
    worst = Math.max(worst, Math.abs((actual?.[i] ?? Number.NaN) - value));
  });
  maxAbsError = Math.max(maxAbsError, worst);
  expect(worst).toBeLessThanOrEqual(TOLERANCE);
}

async function embedError(
  backend: OnnxEmbeddingBackend,
  recipe: EmbeddingRecipe,
  sequences = ['MKT'],
): Promise<EmbeddingBackendError> {
  const error = await backend.embed(sequences, recipe).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof EmbeddingBackendError))
    throw new Error(`expected an EmbeddingBackendError, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'onnx-embedding-'));
  let seed = 11;
  for (const fixture of Object.values(FAMILIES)) {
    const weights = tinyEncoderWeights({ vocabSize: fixture.vocabSize, dim: DIM, seed: seed++ });
    weightsByFamily.set(fixture.family, weights);
    for (const layout of LAYOUTS) {
      await writeModelDir(join(root, modelName(fixture.family, layout)), {
        ...fixture.vocabFiles,
        'model.onnx': buildTinyEncoder(weights, layout),
      });
    }
  }
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe.each(
  (['esm', 't5', 'ankh'] as const).flatMap((family) => LAYOUTS.map((layout) => ({ family, layout }))),
)('OnnxEmbeddingBackend $family, $layout outputs', ({ family, layout }) => {
  let backend: OnnxEmbeddingBackend;
  beforeAll(() => {
    backend = new OnnxEmbeddingBackend({ family, modelsDir: root, intraOpThreads: 1 });
  });
  afterAll(() => backend.close());

  const poolings =
    family === 'esm' ? (['mean', 'max', 'cls', 'mean_max'] as const) : (['mean', 'max', 'mean_max'] as const);
  const cases = poolings.flatMap((pooling) =>
    (['mean', 'last', 'concat'] as const).flatMap((layer_agg) =>
      [false, true].flatMap((normalize_residues) =>
        [false, true].map((normalize) => ({ pooling, layer_agg, normalize_residues, normalize })),
      ),
    ),
  );

  it.each(cases)(
    'pooling $pooling, layer_agg $layer_agg, normalize_residues $normalize_residues, normalize $normalize',
    async (options) => {
      for (const [k, layer_indices] of LAYER_SETS.entries()) {
        const recipe = recipeFor(family, layout, {
          ...options,
          layer_indices,
          embedding_scale: SCALES[k] ?? 1,
        });
        const result = await backend.embed(SEQUENCES, recipe);
        expect(result).toHaveLength(SEQUENCES.length);
        result.forEach((embedding, i) => {
          expect(embedding.chunks).toHaveLength(1);
          expectClose(embedding.chunks[0], expectedVector(family, SEQUENCES[i] ?? '', recipe));
        });
      }
    },
  );

  it.each([
    { layer_indices: [1], width: DIM },
    { layer_indices: [0, 1, 2], width: 3 * DIM },
  ])('concat of $layer_indices is $width wide (mean_max doubles it)', async ({ layer_indices, width }) => {
    const [embedding] = await backend.embed(
      ['MKT'],
      recipeFor(family, layout, { layer_indices, layer_agg: 'concat', pooling: 'mean_max' }),
    );
    expect(embedding?.chunks[0]).toHaveLength(2 * width);
  });

  it('truncates sequences longer than max_length when chunking is off', async () => {
    const recipe = recipeFor(family, layout, {
      max_length: 5,
      layer_indices: [0, 1],
      pooling: 'mean_max',
      normalize: true,
    });
    const result = await backend.embed(SEQUENCES, recipe);
    result.forEach((embedding, i) => {
      expect(embedding.chunks).toHaveLength(1);
      expectClose(embedding.chunks[0], expectedVector(family, (SEQUENCES[i] ?? '').slice(0, 5), recipe));
    });
  });

  it.each([
    {
      name: 'overlapping windows, the last aligned to the end',
      chunk_size: 6,
      chunk_overlap: 2,
      windows: [
        [0, 6],
        [4, 10],
        [8, 14],
        [12, 18],
        [16, 22],
      ],
    },
    {
      name: 'windows with an end-aligned tail',
      chunk_size: 8,
      chunk_overlap: 0,
      windows: [
        [0, 8],
        [8, 16],
        [14, 22],
      ],
    },
    {
      name: 'overlap = chunk_size - 1',
      chunk_size: 20,
      chunk_overlap: 19,
      windows: [
        [0, 20],
        [1, 21],
        [2, 22],
      ],
    },
    { name: 'a chunk size larger than the sequence', chunk_size: 50, chunk_overlap: 10, windows: [[0, 22]] },
  ])('chunks: $name', async ({ chunk_size, chunk_overlap, windows }) => {
    const long = SEQUENCES[0] ?? '';
    // max_length does not apply when chunking.
    const recipe = recipeFor(family, layout, {
      use_chunking: true,
      chunk_size,
      chunk_overlap,
      max_length: 3,
      layer_indices: [2, 0],
      normalize: true,
    });
    const [longResult, shortResult] = await backend.embed([long, 'GAV'], recipe);
    expect(longResult?.chunks).toHaveLength(windows.length);
    windows.forEach(([start, end], k) =>
      expectClose(longResult?.chunks[k], expectedVector(family, long.slice(start, end), recipe)),
    );
    expect(shortResult?.chunks).toHaveLength(1);
    expectClose(shortResult?.chunks[0], expectedVector(family, 'GAV', recipe));
  });

  it('gives the same vectors whatever the batch composition', async () => {
    const recipe = recipeFor(family, layout, { layer_indices: [0, 2], pooling: 'mean_max' });
    const together = await backend.embed(SEQUENCES, recipe);
    const small = new OnnxEmbeddingBackend({ family, modelsDir: root, maxBatchSize: 2 });
    try {
      const inPairs = await small.embed(SEQUENCES, recipe);
      for (const [i, sequence] of SEQUENCES.entries()) {
        const [alone] = await backend.embed([sequence], recipe);
        const reference = Array.from(together[i]?.chunks[0] ?? []);
        expectClose(alone?.chunks[0], reference);
        expectClose(inPairs[i]?.chunks[0], reference);
      }
    } finally {
      await small.close();
    }
  });

  it('rejects layer indices the model does not have', async () => {
    const error = await embedError(backend, recipeFor(family, layout, { layer_indices: [0, 3] }));
    expect(error.code).toBe('invalid_recipe');
    expect(error.message).toContain('[3]');
  });

  it('returns an empty list for no sequences', async () => {
    await expect(backend.embed([], recipeFor(family, layout))).resolves.toEqual([]);
  });

  it('rejects an empty sequence', async () => {
    expect((await embedError(backend, recipeFor(family, layout), ['MKT', ''])).code).toBe('invalid_sequence');
  });
});

describe('OnnxEmbeddingBackend family rules', () => {
  it.each(['t5', 'ankh'] as const)(
    '%s has no CLS token, so cls pooling is an invalid recipe',
    async (family) => {
      const backend = new OnnxEmbeddingBackend({ family, modelsDir: root });
      const error = await embedError(backend, recipeFor(family, 'per_layer', { pooling: 'cls' }));
      expect(error.code).toBe('invalid_recipe');
      expect(error.message).toContain('cls');
      await backend.close();
    },
  );

  it('reads ProtT5 rare residues as X but keeps them for ESM', async () => {
    const t5 = new OnnxEmbeddingBackend({ family: 't5', modelsDir: root });
    const esm = new OnnxEmbeddingBackend({ family: 'esm', modelsDir: root });
    const [t5Rare, t5X] = await t5.embed(['MUZOB', 'MXXXX'], recipeFor('t5', 'per_layer'));
    expect(Array.from(t5Rare?.chunks[0] ?? [])).toEqual(Array.from(t5X?.chunks[0] ?? []));
    const [esmRare, esmX] = await esm.embed(['MUZOB', 'MXXXX'], recipeFor('esm', 'per_layer'));
    expect(Array.from(esmRare?.chunks[0] ?? [])).not.toEqual(Array.from(esmX?.chunks[0] ?? []));
    await Promise.all([t5.close(), esm.close()]);
  });

  it('rejects a recipe for another backend', async () => {
    const backend = new OnnxEmbeddingBackend({ family: 'esm', modelsDir: root });
    expect((await embedError(backend, { ...recipeFor('esm', 'per_layer'), model_backend: 't5' })).code).toBe(
      'invalid_recipe',
    );
  });

  it.each(['..', '../esm-per_layer', 'a/b', ''])(
    'rejects model_name %p, which is not one directory',
    async (model_name) => {
      const backend = new OnnxEmbeddingBackend({ family: 'esm', modelsDir: join(root, 'sub') });
      expect((await embedError(backend, recipeFor('esm', 'per_layer', { model_name }))).code).toBe(
        'invalid_recipe',
      );
    },
  );

  it.each([
    { name: 'max_length 0', overrides: { max_length: 0 }, field: 'max_length' },
    { name: 'chunk_size 0', overrides: { use_chunking: true, chunk_size: 0 }, field: 'chunk_size' },
    {
      name: 'chunk_overlap = chunk_size',
      overrides: { use_chunking: true, chunk_size: 4, chunk_overlap: 4 },
      field: 'chunk_overlap',
    },
    { name: 'empty layer_indices', overrides: { layer_indices: [] }, field: 'layer_indices' },
  ])('rejects a recipe with $name', async ({ overrides, field }) => {
    const backend = new OnnxEmbeddingBackend({ family: 'esm', modelsDir: root });
    const error = await embedError(backend, recipeFor('esm', 'per_layer', overrides));
    expect(error.code).toBe('invalid_recipe');
    expect(error.message).toContain(field);
  });

  it('names its registry entry after the family', () => {
    const backend = new OnnxEmbeddingBackend({ family: 'ankh', modelsDir: root });
    expect(backend.name).toBe('ankh');
    expect(backend.description).toContain('Ankh');
  });

  it('reopens models after close()', async () => {
    const backend = new OnnxEmbeddingBackend({ family: 'esm', modelsDir: root });
    const recipe = recipeFor('esm', 'stacked');
    const [before] = await backend.embed(['MKT'], recipe);
    await backend.close();
    const [after] = await backend.embed(['MKT'], recipe);
    expect(Array.from(after?.chunks[0] ?? [])).toEqual(Array.from(before?.chunks[0] ?? []));
    await backend.close();
  });
});

describe('OnnxEmbeddingBackend model errors', () => {
  const backend = (): OnnxEmbeddingBackend => new OnnxEmbeddingBackend({ family: 'esm', modelsDir: root });
  const recipe = (model_name: string): EmbeddingRecipe => recipeFor('esm', 'per_layer', { model_name });

  it('model_not_found names the directory it looked in', async () => {
    const error = await embedError(backend(), recipe('absent-model'));
    expect(error.code).toBe('model_not_found');
    expect(error.message).toContain(join(root, 'absent-model'));
  });

  it('model_not_found names the missing model.onnx', async () => {
    await writeModelDir(join(root, 'no-onnx'), FAMILIES.esm.vocabFiles);
    const error = await embedError(backend(), recipe('no-onnx'));
    expect(error.code).toBe('model_not_found');
    expect(error.message).toContain(join(root, 'no-onnx', 'model.onnx'));
  });

  it('model_not_found names the missing vocabulary file', async () => {
    await writeModelDir(join(root, 'no-vocab'), {
      'model.onnx': buildTinyEncoder(weightsByFamily.get('esm') as TinyEncoderWeights, 'per_layer'),
    });
    const error = await embedError(backend(), recipe('no-vocab'));
    expect(error.code).toBe('model_not_found');
    expect(error.message).toContain(join(root, 'no-vocab', 'vocab.txt'));
  });

  it('does not remember a failed load: the model works once its files are in place', async () => {
    const instance = backend();
    expect((await embedError(instance, recipe('late-model'))).code).toBe('model_not_found');
    await writeModelDir(join(root, 'late-model'), {
      ...FAMILIES.esm.vocabFiles,
      'model.onnx': buildTinyEncoder(weightsByFamily.get('esm') as TinyEncoderWeights, 'per_layer'),
    });
    await expect(instance.embed(['MKT'], recipe('late-model'))).resolves.toHaveLength(1);
    await instance.close();
  });

  it.each([
    { name: 'a graph without hidden-state outputs', build: buildModelWithoutHiddenStates, message: 'logits' },
    { name: 'a graph with other inputs', build: buildModelWithWrongInputs, message: 'tokens' },
  ])('invalid_model for $name', async ({ name, build, message }) => {
    const dir = name.replace(/\W+/g, '-');
    await writeModelDir(join(root, dir), {
      ...FAMILIES.esm.vocabFiles,
      'model.onnx': build(weightsByFamily.get('esm') as TinyEncoderWeights),
    });
    const error = await embedError(backend(), recipe(dir));
    expect(error.code).toBe('invalid_model');
    expect(error.message).toContain(join(root, dir, 'model.onnx'));
    expect(error.message).toContain(message);
  });

  it('invalid_model for a hidden_states output of rank 3', async () => {
    const model = buildModelWithRank3HiddenStates(weightsByFamily.get('esm') as TinyEncoderWeights);
    await writeModelDir(join(root, 'rank3'), { ...FAMILIES.esm.vocabFiles, 'model.onnx': model });
    const error = await embedError(backend(), recipe('rank3'));
    expect(error.code).toBe('invalid_model');
    expect(error.message).toContain('rank 4');
  });

  it('invalid_model for a file that is not ONNX', async () => {
    await writeModelDir(join(root, 'garbage'), FAMILIES.esm.vocabFiles);
    await writeFile(join(root, 'garbage', 'model.onnx'), 'not a protobuf');
    const error = await embedError(backend(), recipe('garbage'));
    expect(error.code).toBe('invalid_model');
    expect(error.message).toContain(join(root, 'garbage', 'model.onnx'));
  });
});

afterAll(() => {
  if (process.env['ONNX_EMBEDDING_REPORT_ERROR'] === '1')
    process.stdout.write(`max abs error vs reference: ${maxAbsError}\n`);
});
