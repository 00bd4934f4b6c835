export * from './artifact-store';
export * from './create-artifact-store';
export * from './local-artifact-store';
export * from './s3-artifact-store';
