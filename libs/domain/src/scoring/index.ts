export * from './scoring';
