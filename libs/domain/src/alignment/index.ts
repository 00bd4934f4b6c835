export * from './alignment-types';
export * from './blosum62';
export * from './global-alignment';
export * from './local-alignment';
export * from './alignment-features';
