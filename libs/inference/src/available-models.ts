import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AvailableEmbeddingModels } from '@svc/domain';
import { KMER_RECIPES } from './kmer';
import { ANKH_VOCAB_FILE, ESM_VOCAB_FILE, ONNX_MODEL_FILE, OnnxModelFamily, T5_VOCAB_FILE } from './onnx';

const VOCAB_FILE: Record<OnnxModelFamily, string> = {
  esm: ESM_VOCAB_FILE,
  t5: T5_VOCAB_FILE,
  ankh: ANKH_VOCAB_FILE,
};

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}

/**
 * The model names each backend can run with this models folder: every k-mer recipe, and for each
 * ONNX family the folders holding `model.onnx` and that family's vocabulary file (what the backend
 * opens; docs/models.md). A missing or unreadable folder has no ONNX models. Sorted by name.
 */
export async function availableEmbeddingModels(modelsDir: string): Promise<AvailableEmbeddingModels> {
  const entries = await readdir(modelsDir, { withFileTypes: true }).catch(() => []);
  const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  const withModel: string[] = [];
  for (const name of folders) if (await isFile(join(modelsDir, name, ONNX_MODEL_FILE))) withModel.push(name);
  const family = async (f: OnnxModelFamily): Promise<string[]> => {
    const names: string[] = [];
    for (const name of withModel) if (await isFile(join(modelsDir, name, VOCAB_FILE[f]))) names.push(name);
    return names.sort();
  };
  return {
    kmer: Object.keys(KMER_RECIPES).sort(),
    esm: await family('esm'),
    t5: await family('t5'),
    ankh: await family('ankh'),
  };
}
