export * from './transfer-batch';
export * from './reference-index-cache';
export * from './pair-features';
export * from './pool-disk-cache';
