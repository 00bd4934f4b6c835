export * from './logger';
export * from './nest-logger';
