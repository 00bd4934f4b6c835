export * from './bands';
export * from './baseline-scoring';
export * from './benchmark-config';
export * from './lafa-frame';
export * from './matrix';
