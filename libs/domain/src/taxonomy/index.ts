export * from './nodes-dmp';
export * from './taxonomy-index';
export * from './taxonomy-features';
export * from './ncbi-taxon-id';
