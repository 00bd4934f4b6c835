export * from './svc-client';
