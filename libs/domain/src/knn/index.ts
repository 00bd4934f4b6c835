export * from './neighbours';
export * from './transfer';
export * from './feature-schema';
