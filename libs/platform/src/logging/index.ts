export * from './logger';
export * from './nest-logger';
export * from './process-line';
