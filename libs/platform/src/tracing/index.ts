export * from './message-tracing';
export * from './process-tracing';
export * from './start-tracing';
