export * from './artifact-store';
export * from './create-artifact-store';
export * from './local-artifact-store';
