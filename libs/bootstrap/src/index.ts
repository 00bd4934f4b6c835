// How a process of the service starts: its infrastructure (database pool, repositories, broker,
// artifact store, metrics), its secrets, the worker bootstrap and the Nest modules the apps share.
export * from './process/infrastructure';
export * from './process/bootstrap-worker';
export * from './nest/worker-http.module';
export * from './nest/persistence.module';
export * from './process/service-secrets';
export * from './process/run-main';
