export * from './run-status';
