export * from './dataset-plan';
export * from './pca';
