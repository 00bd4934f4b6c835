export * from './chunk-windows';
export * from './layer-aggregation';
export * from './residue-pooling';
export * from './vector-math';
