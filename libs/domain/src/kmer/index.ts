export * from './kmer-alphabet';
export * from './background-frequencies';
export * from './kmer-spectrum-spec';
export * from './kmer-spectrum';
