export * from './neighbours';
export * from './transfer';
export * from './feature-schema';
export * from './feature-values';
export * from './term-coherence';
export * from './calibration';
export * from './homology-blend';
export * from './association';
