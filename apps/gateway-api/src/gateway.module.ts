import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { Infrastructure, PersistenceModule } from '@svc/bootstrap';
import { ProblemFilter, RoleFloorGuard } from '@svc/platform';
import { AuthModule } from './auth/auth.module';
import { AuthRpcClient } from './auth/auth-rpc.client';
import { CredentialGateGuard, EmailFlowsGuard, GatewayAuth, RateLimitGuard } from './auth/guards';
import { CommunityModule } from './community/community.module';
import { CoreModule } from './core.module';
import { DatasetsModule } from './datasets/datasets.module';
import { EmbeddingsModule } from './embeddings/embeddings.module';
import { EvaluationsModule } from './evaluations/evaluations.module';
import { ExperimentsModule } from './experiments/experiments.module';
import { OperationsModule } from './operations.module';
import { JobsModule } from './jobs/jobs.module';
import { PluginsModule } from './plugins/plugins.module';
import { PredictionsModule } from './predictions/predictions.module';
import { ReferenceModule } from './reference/reference.module';
import { SourcesModule } from './sources/sources.module';
import { StackModule } from './stack/stack.module';

/** The gateway: one feature module per resource, the global error filter and the guards in order. */
@Module({})
export class GatewayModule {
  static forRoot(infra: Infrastructure, auth: GatewayAuth, rpc: AuthRpcClient): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        CoreModule.forRoot(infra, auth, rpc),
        PersistenceModule.forRoot(infra.repos),
        OperationsModule,
        JobsModule,
        AuthModule,
        ReferenceModule,
        EmbeddingsModule,
        PluginsModule,
        PredictionsModule,
        ExperimentsModule,
        CommunityModule,
        StackModule,
        EvaluationsModule,
        DatasetsModule,
        SourcesModule,
      ],
      providers: [
        { provide: APP_FILTER, useFactory: () => new ProblemFilter(infra.logger.child('gateway.errors')) },
        // Order matters: credential gate, then the rate limiter (keyed on the verified principal),
        // then the route's role floor.
        { provide: APP_GUARD, useClass: EmailFlowsGuard },
        { provide: APP_GUARD, useClass: CredentialGateGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: RoleFloorGuard },
      ],
    };
  }
}
