export * from './ownership';
