import { DynamicModule, Global, Module } from '@nestjs/common';
import type { Repositories } from '@svc/persistence';

/** The process's repositories as one object (`@Inject(REPOSITORIES)`), for code that needs several. */
export const REPOSITORIES = Symbol('REPOSITORIES');

/**
 * Provides every repository of the process to its Nest modules: each one under its class (a service
 * asks for `JobRepository` in its constructor) and all of them as `REPOSITORIES`. One set per
 * process, built over its pool; nothing outside `libs/persistence` constructs a repository.
 */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(repos: Repositories): DynamicModule {
    const byClass = Object.values(repos).map((repository) => ({
      provide: repository.constructor,
      useValue: repository,
    }));
    const providers = [{ provide: REPOSITORIES, useValue: repos }, ...byClass];
    return { module: PersistenceModule, providers, exports: providers.map((p) => p.provide) };
  }
}
