export * from './transfer-batch';
export * from './reference-index-cache';
export * from './pair-features';
export * from './pool-disk-cache';
export * from './blend/default-blend';
export {
  aheadQueryId,
  HOMOLOGY_HITS,
  HOMOLOGY_SELF_MARGIN,
  homologyQueryId,
  splitAheadLine,
} from './homology-transfer';
export * from './prior-composition';
export * from './search-ahead';
