export * from './test-environment';
export * from './wait-for';
export * from './http-client';
export * from './spawn-app';
export * from './free-port';
export * from './remove-queues';
export * from './suite-world';
export * from './s3-server';
