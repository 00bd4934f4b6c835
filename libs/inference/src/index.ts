export * from './embedding-backend';
export * from './onnx';
export * from './kmer';
export * from './backend-registry';
