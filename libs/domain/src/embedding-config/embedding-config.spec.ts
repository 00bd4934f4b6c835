import { canonicalizeEmbeddingConfig } from './embedding-config';
import { uuidV5 } from './uuid-v5';

describe('uuidV5', () => {
  it('matches the RFC 4122 example (DNS namespace, www.example.com)', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });
});

describe('canonicalizeEmbeddingConfig', () => {
  it('fills defaults and derives a stable id from the recipe only', () => {
    const a = canonicalizeEmbeddingConfig({
      model_name: 'kmer-v1',
      model_backend: 'kmer',
      description: 'one',
    });
    const b = canonicalizeEmbeddingConfig({
      description: 'two',
      model_backend: 'kmer',
      model_name: 'kmer-v1',
      pooling: 'mean',
    });
    if (!('config' in a) || !('config' in b)) throw new Error('expected valid configs');
    expect(a.config).toMatchObject({
      model_name: 'kmer-v1',
      model_backend: 'kmer',
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
      description: 'one',
    });
    expect(a.config.id).toBe(b.config.id);
    expect(a.config.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const c = canonicalizeEmbeddingConfig({ model_name: 'kmer-v1', model_backend: 'kmer', normalize: false });
    expect('config' in c && c.config.id).not.toBe(a.config.id);
  });

  it.each([
    [{}, ['model_name']],
    [{ model_name: '../etc', model_backend: 'kmer' }, ['model_name']],
    [{ model_name: 'm', model_backend: 'bert' }, ['model_backend']],
    [{ model_name: 'm', layer_indices: [] }, ['layer_indices']],
    [{ model_name: 'm', layer_indices: [0, 0] }, ['layer_indices']],
    [{ model_name: 'm', layer_indices: [-1] }, ['layer_indices']],
    [{ model_name: 'm', layer_agg: 'sum' }, ['layer_agg']],
    [{ model_name: 'm', pooling: 'attention' }, ['pooling']],
    [{ model_name: 'm', model_backend: 't5', pooling: 'cls' }, ["pooling 'cls'"]],
    [{ model_name: 'm', normalize: 'yes' }, ['normalize']],
    [{ model_name: 'm', max_length: 0 }, ['max_length']],
    [{ model_name: 'm', chunk_size: 100, chunk_overlap: 100 }, ['chunk_overlap']],
    [{ model_name: 'm', embedding_scale: 0 }, ['embedding_scale']],
    [{ model_name: 'm', colour: 'blue' }, ["unknown field 'colour'"]],
  ])('rejects %j', (input, fragments) => {
    const result = canonicalizeEmbeddingConfig(input);
    expect('errors' in result).toBe(true);
    if ('errors' in result)
      for (const fragment of fragments) expect(result.errors.join('\n')).toContain(fragment);
  });

  it('lists every problem at once', () => {
    const result = canonicalizeEmbeddingConfig({
      model_backend: 'x',
      pooling: 'y',
      max_length: -1,
      extra: 1,
    });
    expect('errors' in result && result.errors.length).toBe(5);
  });
});

describe('canonicalizeEmbeddingConfig with the models each backend can run', () => {
  const available = { kmer: ['kmer-v1'], esm: ['esm2_t6_8M_UR50D'], t5: [], ankh: [] };
  const errorsOf = (body: Record<string, unknown>): string[] => {
    const result = canonicalizeEmbeddingConfig(body, available);
    return 'errors' in result ? result.errors : [];
  };

  it.each([
    { name: 'a known k-mer recipe', body: { model_name: 'kmer-v1', model_backend: 'kmer' }, errors: [] },
    {
      name: 'the backend name is not a recipe',
      body: { model_name: 'kmer', model_backend: 'kmer' },
      errors: ["model_name 'kmer' is not a known k-mer recipe (one of kmer-v1)"],
    },
    {
      name: 'an installed ONNX model',
      body: { model_name: 'esm2_t6_8M_UR50D', model_backend: 'esm' },
      errors: [],
    },
    {
      name: 'an ONNX model not installed',
      body: { model_name: 'esm2_t33_650M_UR50D', model_backend: 'esm' },
      errors: [
        "model_name 'esm2_t33_650M_UR50D' is not a known installed esm model (one of esm2_t6_8M_UR50D)",
      ],
    },
    {
      name: 'a backend with nothing installed',
      body: { model_name: 'ankh-base', model_backend: 'ankh' },
      errors: ["model_name 'ankh-base' is not a known installed ankh model (none is available)"],
    },
    {
      name: "another backend's model",
      body: { model_name: 'kmer-v1', model_backend: 't5' },
      errors: ["model_name 'kmer-v1' is not a known installed t5 model (none is available)"],
    },
    {
      name: 'listed with the other problems',
      body: { model_name: 'kmer', model_backend: 'kmer', pooling: 'attention' },
      errors: [
        "model_name 'kmer' is not a known k-mer recipe (one of kmer-v1)",
        'pooling must be one of mean, max, cls, mean_max',
      ],
    },
    {
      name: 'a malformed name gets only the format problem',
      body: { model_name: '../x', model_backend: 'kmer' },
      errors: ['model_name must be 1-200 letters, digits, dot, dash or underscore (it names a model folder)'],
    },
  ])('$name', ({ body, errors }) => expect(errorsOf(body)).toEqual(errors));

  it('without the list, only the recipe is checked (tools and fixed defaults)', () =>
    expect('config' in canonicalizeEmbeddingConfig({ model_name: 'kmer', model_backend: 'kmer' })).toBe(
      true,
    ));
});
