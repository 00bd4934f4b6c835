export * from './artifact-store';
export * from './create-artifact-store';
export * from './local-artifact-store';
export * from './read-artifact';
export * from './s3-artifact-store';
