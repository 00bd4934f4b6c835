export * from './kmer-recipes';
export * from './kmer-embedding-backend';
