export * from './unavailable';
