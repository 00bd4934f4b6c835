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

/** Experiment runners: the baseline is real; `knn` and `boosted_tree` are contract stubs for outside runners. */
export const BUILT_IN_RUNNERS: readonly PluginInfo[] = [
  { name: 'baseline', cls: 'BaselineRunner', module: '@svc/runners', extra: { stub: false } },
  { name: 'knn', cls: 'KnnRunner', module: '@svc/runners', extra: { stub: true } },
  { name: 'boosted_tree', cls: 'BoostedTreeRunner', module: '@svc/runners', extra: { stub: true } },
];

/** Annotation sources; `extra.version` is the format or protocol version the loader reads. */
export const BUILT_IN_ANNOTATION_SOURCES: readonly PluginInfo[] = [
  {
    name: 'goa',
    cls: 'GafLoader',
    module: '@svc/ingestion/gaf',
    extra: { version: 'GAF 2.2', reads: ['2.1', '2.2'] },
  },
  {
    name: 'quickgo',
    cls: 'QuickGoLoader',
    module: '@svc/ingestion/quickgo',
    extra: { version: 'QuickGO REST 1' },
  },
  {
    name: 'uniprot',
    cls: 'UniProtLoader',
    module: '@svc/ingestion/uniprot',
    extra: { version: 'UniProt REST 2' },
  },
];

/** Registry groups as they appear in package manifests and in responses. */
export const PLUGIN_GROUPS = {
  runners: 'runners',
  embeddingBackends: 'embedding_backends',
  annotationSources: 'annotation_sources',
} as const;
