import { embedKmerSpectrum, l2Norm } from '@svc/domain';
import { EmbeddingBackendError, EmbeddingRecipe } from '../embedding-backend';
import { KmerEmbeddingBackend } from './kmer-embedding-backend';
import { DEFAULT_KMER_MODEL, KMER_RECIPES } from './kmer-recipes';

const RECIPE: EmbeddingRecipe = {
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
};

const SPEC = KMER_RECIPES['kmer-v1']!;
const HUMAN_TP53_START =
  'MEEPQSDPSVEPPLSQETFSDLWKLLPENNVLSPLPSQAMDDLMLSPDDIEQWFTEDPGPDEAPRMPEAAPPVAPAPAAPTPAAPAPAPSWPLSSSVPSQKTYQGSYGFRLGFLHSGTAKSVTCTYSPALNKMFCQLAKTCPVQLWVDSTPPPGTRVRAMAIYKQSQHMTEVVRRCPHHERCSDSDGLAPPQHLIRVEGNLRVEYLDDRNTFRHSVVVPYEPPEVGSDCTTIHYNYMCNSSCMGGMNRRPILTIITLEDSSGNLLGRNSFEVRVCACPGRDRRTEEENLRKKGEPHHELPPGSTKRALPNNT';

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot / (l2Norm(a) * l2Norm(b));
}

describe('KmerEmbeddingBackend', () => {
  const backend = new KmerEmbeddingBackend();
  afterAll(() => backend.close());

  it('registers kmer-v1 as the default recipe, 2048 dimensions', () => {
    expect(DEFAULT_KMER_MODEL).toBe('kmer-v1');
    expect(SPEC.dimension).toBe(2048);
    expect(backend.name).toBe('kmer');
    expect(backend.description).toContain('kmer-v1');
  });

  it('gives one unit-length 2048-dimensional vector per sequence without chunking', async () => {
    const result = await backend.embed(['MKTAYIAKQRQISFVKSHFSRQ', HUMAN_TP53_START], RECIPE);
    expect(result).toHaveLength(2);
    for (const { chunks } of result) {
      expect(chunks).toHaveLength(1);
      expect(chunks[0]).toHaveLength(2048);
      expect(l2Norm(chunks[0]!)).toBeCloseTo(1, 5);
    }
  });

  it('keeps kmer-v1 vectors stable (pinned values: a change needs a new recipe name)', async () => {
    const [embedding] = await backend.embed(['MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQ'], RECIPE);
    const vector = embedding!.chunks[0]!;
    let strongest = 0;
    vector.forEach((value, i) =>
      Math.abs(value) > Math.abs(vector[strongest]!) ? (strongest = i) : undefined,
    );
    expect(strongest).toBe(1808);
    expect(vector[1808]).toBeCloseTo(-0.284067, 6);
    expect(Array.from(vector.slice(0, 4)).map((v) => Number(v.toFixed(6)))).toEqual([
      0, -0.001532, 0.001221, -0.003525,
    ]);
  });

  it('is deterministic across calls and instances', async () => {
    const [first] = await backend.embed([HUMAN_TP53_START], RECIPE);
    const [second] = await new KmerEmbeddingBackend().embed([HUMAN_TP53_START], RECIPE);
    expect(Array.from(second!.chunks[0]!)).toEqual(Array.from(first!.chunks[0]!));
  });

  it.each([
    { name: 'embedding_scale 2', changes: { embedding_scale: 2 }, length: 2 },
    { name: 'embedding_scale 0.5', changes: { embedding_scale: 0.5 }, length: 0.5 },
  ])('applies $name to the final vector', async ({ changes, length }) => {
    const [embedding] = await backend.embed([HUMAN_TP53_START], { ...RECIPE, ...changes });
    expect(l2Norm(embedding!.chunks[0]!)).toBeCloseTo(length, 5);
  });

  it('leaves the vector unnormalised with normalize=false, scale still applied', async () => {
    const [embedding] = await backend.embed([HUMAN_TP53_START], {
      ...RECIPE,
      normalize: false,
      embedding_scale: 3,
    });
    const raw = embedKmerSpectrum({ sequence: HUMAN_TP53_START, spec: SPEC, normalize: false });
    expect(l2Norm(raw)).toBeGreaterThan(2);
    embedding!.chunks[0]!.forEach((value, i) => expect(value).toBeCloseTo(raw[i]! * 3, 4));
  });

  it('truncates to max_length without chunking', async () => {
    const [embedding] = await backend.embed([HUMAN_TP53_START], { ...RECIPE, max_length: 40 });
    const expected = embedKmerSpectrum({ sequence: HUMAN_TP53_START.slice(0, 40), spec: SPEC });
    expect(Array.from(embedding!.chunks[0]!)).toEqual(Array.from(expected));
  });

  it.each([
    {
      length: 25,
      size: 10,
      overlap: 5,
      windows: [
        [0, 10],
        [5, 15],
        [10, 20],
        [15, 25],
      ],
    },
    {
      length: 25,
      size: 10,
      overlap: 0,
      windows: [
        [0, 10],
        [10, 20],
        [15, 25],
      ],
    },
    { length: 8, size: 10, overlap: 2, windows: [[0, 8]] },
  ])(
    'chunks $length residues into windows of $size overlapping by $overlap',
    async ({ length, size, overlap, windows }) => {
      const sequence = HUMAN_TP53_START.slice(0, length);
      const recipe = {
        ...RECIPE,
        use_chunking: true,
        chunk_size: size,
        chunk_overlap: overlap,
        max_length: 3,
      };
      const [embedding] = await backend.embed([sequence], recipe);
      expect(embedding!.chunks.map((chunk) => Array.from(chunk))).toEqual(
        windows.map(([start, end]) =>
          Array.from(embedKmerSpectrum({ sequence: sequence.slice(start, end), spec: SPEC })),
        ),
      );
    },
  );

  it('ignores the layer and pooling fields', async () => {
    const [plain] = await backend.embed([HUMAN_TP53_START], RECIPE);
    const [other] = await backend.embed([HUMAN_TP53_START], {
      ...RECIPE,
      layer_indices: [3, 5],
      layer_agg: 'concat',
      pooling: 'mean_max',
      normalize_residues: true,
    });
    expect(Array.from(other!.chunks[0]!)).toEqual(Array.from(plain!.chunks[0]!));
  });

  it('gives the zero vector to an empty sequence and one of unknown residues', async () => {
    const result = await backend.embed(['', 'XXXXXXXX'], RECIPE);
    for (const { chunks } of result) expect(chunks[0]!.every((value) => value === 0)).toBe(true);
  });

  it('puts a close homologue nearer than an unrelated protein', async () => {
    const homologue = HUMAN_TP53_START.replace(/[KR]/g, (r) => (r === 'K' ? 'R' : 'K')).replace(/I/g, 'V');
    const unrelated =
      'MSTNPKPQRKTKRNTNRRPQDVKFPGGGQIVGGVYLLPRRGPRLGVRATRKTSERSQPRGRRQPIPKARRPEGRTWAQPGYPWPLYGNEGCGWAGWLLSPRGSRPSWGPTDPRRRSRNLGKVIDTLTCGFADLMGYIPLVGAPLGGAARALAHGVRVLEDGVNYATGNLPGCSFSIFLLALLSCLTVPASA';
    const [tp53, near, far] = await backend.embed([HUMAN_TP53_START, homologue, unrelated], RECIPE);
    const similar = cosine(tp53!.chunks[0]!, near!.chunks[0]!);
    const random = cosine(tp53!.chunks[0]!, far!.chunks[0]!);
    expect(similar).toBeGreaterThan(random + 0.2);
  });

  it.each([
    { name: 'an unknown recipe name', changes: { model_name: 'kmer-v0' }, code: 'model_not_found' },
    { name: 'an inherited property name', changes: { model_name: 'toString' }, code: 'model_not_found' },
    { name: 'another backend', changes: { model_backend: 'esm' as const }, code: 'invalid_model' },
    { name: 'max_length 0', changes: { max_length: 0 }, code: 'invalid_recipe' },
    { name: 'a non-positive scale', changes: { embedding_scale: 0 }, code: 'invalid_recipe' },
    {
      name: 'overlap not below chunk_size',
      changes: { use_chunking: true, chunk_size: 10, chunk_overlap: 10 },
      code: 'invalid_recipe',
    },
  ])('rejects $name with code $code', async ({ changes, code }) => {
    const attempt = backend.embed(['MKTAYIAKQR'], { ...RECIPE, ...changes });
    await expect(attempt).rejects.toBeInstanceOf(EmbeddingBackendError);
    await expect(attempt).rejects.toMatchObject({ code });
  });
});
