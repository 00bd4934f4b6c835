export * from './link-header';
export * from './uniprot-accession';
export * from './uniprot-entry';
export * from './uniprot-fasta-header';
export * from './uniprot-tsv';
export * from './uniprot-metadata';
