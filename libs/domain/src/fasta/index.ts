export * from './amino-acids';
export * from './fasta-format';
export * from './fasta-header';
export * from './fasta-parse';
export * from './fasta-reader';
export * from './fasta-record';
export * from './nucleotide-records';
