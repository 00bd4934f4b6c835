export * from './ankh-tokenizer';
export * from './esm-tokenizer';
export * from './hidden-state-model';
export * from './onnx-embedding-backend';
export * from './protein-tokenizer';
export * from './sentencepiece-tokenizer';
export * from './t5-tokenizer';
