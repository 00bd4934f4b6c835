export * from './message-broker';
export * from './amqp-broker';
export * from './in-process-queues';
export * from './in-process-broker';
export * from './in-process-rpc';
export * from './traceparent';
