import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { availableEmbeddingModels } from './available-models';

describe('availableEmbeddingModels', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-models-'));
    const model = (name: string, files: string[]): void => {
      mkdirSync(join(dir, name));
      for (const file of files) writeFileSync(join(dir, name, file), '');
    };
    model('esm-small', ['model.onnx', 'vocab.txt']);
    model('prot-t5', ['model.onnx', 'vocab.json']);
    model('vocab-only', ['vocab.txt']);
    model('weights-only', ['model.onnx']);
    writeFileSync(join(dir, 'model.onnx'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the k-mer recipes and the folders each ONNX family can open', async () =>
    expect(await availableEmbeddingModels(dir)).toEqual({
      kmer: ['kmer-v1'],
      esm: ['esm-small'],
      // t5 and Ankh read the same vocab.json: a folder cannot tell which of the two it holds.
      t5: ['prot-t5'],
      ankh: ['prot-t5'],
    }));

  it('a missing models folder has only the k-mer recipes', async () =>
    expect(await availableEmbeddingModels(join(dir, 'absent'))).toEqual({
      kmer: ['kmer-v1'],
      esm: [],
      t5: [],
      ankh: [],
    }));
});
