import { DynamicModule, Global, Module } from '@nestjs/common';
import type { Repositories } from '@svc/persistence';

/**
 * Provides every repository of the process to its Nest modules under its class: a service asks for
 * `JobRepository` in its constructor. One set per process, built over its pool.
 */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(repos: Repositories): DynamicModule {
    const providers = Object.values(repos).map((repository) => ({
      provide: repository.constructor,
      useValue: repository,
    }));
    return { module: PersistenceModule, providers, exports: providers.map((p) => p.provide) };
  }
}
