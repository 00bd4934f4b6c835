/** A plugin as the registry endpoints list it. */
export interface PluginInfo {
  name: string;
  cls: string;
  module: string;
  extra: Record<string, unknown>;
}

export interface PluginListResponse {
  group: string;
  plugins: PluginInfo[];
}

/** The four built-in embedding backends. */
export const BUILT_IN_EMBEDDING_BACKENDS: readonly PluginInfo[] = [
  {
    name: 'kmer',
    cls: 'KmerEmbeddingBackend',
    module: '@svc/inference/kmer',
    extra: { weights: false, default: true },
  },
  {
    name: 'esm',
    cls: 'OnnxEmbeddingBackend',
    module: '@svc/inference/onnx',
    extra: { family: 'esm', runtime: 'onnxruntime-node' },
  },
  {
    name: 't5',
    cls: 'OnnxEmbeddingBackend',
    module: '@svc/inference/onnx',
    extra: { family: 't5', runtime: 'onnxruntime-node' },
  },
  {
    name: 'ankh',
    cls: 'OnnxEmbeddingBackend',
    module: '@svc/inference/onnx',
    extra: { family: 'ankh', runtime: 'onnxruntime-node' },
  },
];
