export * from './amqp-broker';
export * from './traceparent';
