export * from './obo-types';
export * from './go-aspect';
export * from './obo-parser';
export * from './go-graph';
export * from './obo-content-hash';
