export * from './embedding-backend';
export * from './onnx';
export * from './kmer';
export * from './backend-registry';
export * from './available-models';
export * from './search/vector-search';
export * from './search/gemm-search';
export * from './reranker/booster';
