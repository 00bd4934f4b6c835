import { EmbeddingBackend, EmbeddingBackendError } from './embedding-backend';
import { KmerEmbeddingBackend } from './kmer';
import { OnnxEmbeddingBackend } from './onnx';

/**
 * One backend instance per (name, models folder) and process, so model sessions are loaded once
 * and reused by every batch the worker runs.
 */
export class EmbeddingBackendPool {
  private readonly backends = new Map<string, EmbeddingBackend>();

  constructor(private readonly modelsDir: string) {}

  get(name: string): EmbeddingBackend {
    const existing = this.backends.get(name);
    if (existing !== undefined) return existing;
    const backend = this.create(name);
    this.backends.set(name, backend);
    return backend;
  }

  private create(name: string): EmbeddingBackend {
    switch (name) {
      case 'kmer':
        return new KmerEmbeddingBackend();
      case 'esm':
      case 't5':
      case 'ankh':
        return new OnnxEmbeddingBackend({ family: name, modelsDir: this.modelsDir });
      default:
        throw new EmbeddingBackendError('unknown_backend', `no embedding backend named '${name}'`);
    }
  }

  async close(): Promise<void> {
    for (const backend of this.backends.values()) await backend.close();
    this.backends.clear();
  }
}
