import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { EMBEDDING_RECIPE_DEFAULTS, parseFasta } from '@svc/domain';
import { EmbeddingRecipe, KmerEmbeddingBackend, OnnxEmbeddingBackend } from '@svc/inference';
import { buildTinyEncoder, tinyEncoderWeights } from '../../libs/inference/testing/onnx/tiny-encoder';
import { ESM_TEST_VOCAB, esmVocabText, writeModelDir } from '../../libs/inference/testing/onnx/vocabularies';
import { peakRssMb } from './bench-support';

const HUMAN = resolve(
  __dirname,
  '../../../shared/data/human/human_swissprot_seqs.metastudent-2014-01.fasta.gz',
);

const BASE = EMBEDDING_RECIPE_DEFAULTS;

async function time(
  label: string,
  sequences: string[],
  run: (batch: string[]) => Promise<unknown>,
  batchSize: number,
) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < sequences.length; i += batchSize) await run(sequences.slice(i, i + batchSize));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const residues = sequences.reduce((n, s) => n + s.length, 0);
  return {
    backend: label,
    sequences: sequences.length,
    seconds: Number(seconds.toFixed(2)),
    sequences_per_s: Math.round(sequences.length / seconds),
    residues_per_s: Math.round(residues / seconds),
  };
}

/**
 * `npm run bench:embed`: sequences/s of the k-mer backend over the 17,857 human Swiss-Prot sequences,
 * and of the ONNX path (tokeniser, onnxruntime session, layer selection, pooling) with a small
 * generated encoder, which measures the pipeline's own cost rather than a real language model's.
 */
async function main(): Promise<void> {
  const parsed = parseFasta(gunzipSync(readFileSync(HUMAN)).toString('utf8'));
  const sequences = parsed.records.map((r) => r.sequence);
  const kmer = new KmerEmbeddingBackend();
  const kmerRecipe: EmbeddingRecipe = { ...BASE, model_name: 'kmer-v1', model_backend: 'kmer' };
  const rows = [await time('kmer (kmer-v1)', sequences, (batch) => kmer.embed(batch, kmerRecipe), 256)];

  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-models-'));
  try {
    const weights = tinyEncoderWeights({ vocabSize: ESM_TEST_VOCAB.length, dim: 64, seed: 7 });
    await writeModelDir(join(dir, 'tiny-esm'), {
      'model.onnx': buildTinyEncoder(weights, 'per_layer'),
      'vocab.txt': esmVocabText(),
    });
    const onnx = new OnnxEmbeddingBackend({ family: 'esm', modelsDir: dir });
    const onnxRecipe: EmbeddingRecipe = {
      ...BASE,
      model_name: 'tiny-esm',
      model_backend: 'esm',
      layer_indices: [0, 1],
      max_length: 512,
    };
    rows.push(
      await time(
        'onnx esm (generated 3-layer, dim 64)',
        sequences.slice(0, 3000),
        (batch) => onnx.embed(batch, onnxRecipe),
        8,
      ),
    );
    await onnx.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.table(rows);
  process.stdout.write(`${JSON.stringify({ results: rows, peak_rss_mb: peakRssMb() })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
