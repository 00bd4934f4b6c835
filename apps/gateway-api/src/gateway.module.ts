import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { INFRASTRUCTURE, Infrastructure } from '@svc/jobs';
import { ProblemFilter, RoleFloorGuard } from '@svc/platform';
import { AdminController, UsersController } from './auth/admin.controller';
import { AuthRpcClient } from './auth/auth-rpc.client';
import { AUTH_RPC_CLIENT, AuthController } from './auth/auth.controller';
import {
  CredentialGateGuard,
  EmailFlowsGuard,
  GATEWAY_AUTH,
  GatewayAuth,
  RateLimitGuard,
} from './auth/guards';
import { EmbeddingMaintenanceController, EmbeddingsController } from './embeddings/embeddings.controller';
import { EmbeddingsService } from './embeddings/embeddings.service';
import { HealthController } from './health/health.controller';
import { JobsController } from './jobs/jobs.controller';
import { JobsService } from './jobs/jobs.service';
import { MetricsController } from './metrics/metrics.controller';
import {
  AnnotationsController,
  MaintenanceController,
  ProteinsController,
  QuerySetsController,
} from './reference/reference.controllers';
import { ReferenceService } from './reference/reference.service';
import { WorkersController } from './workers/workers.controller';

import {
  AnnotateController,
  PredictionsController,
  RerankerModelsController,
  ScoringController,
  ScoringRerankersController,
} from './predictions/predictions.controller';
import { RerankersService } from './predictions/rerankers.service';
import { DatasetsController } from './datasets/datasets.controller';
import { DatasetsService } from './datasets/datasets.service';
import { AnnotateService } from './predictions/annotate.service';
import {
  BenchmarkController,
  EvaluationsController,
  PredictionSetMetricsController,
} from './evaluations/evaluations.controller';
import { EvaluationsService } from './evaluations/evaluations.service';
import { RerankService } from './evaluations/rerank.service';
import { PredictionsService } from './predictions/predictions.service';
import { ScoringService } from './predictions/scoring.service';

import { ExperimentRunsController } from './experiments/experiment-runs.controller';
import { ExperimentRunsService } from './experiments/experiment-runs.service';
import { CommunityController } from './community/community.controller';
import { StackController } from './stack/stack.controller';
import { StackService } from './stack/stack.service';
import { PluginRegistryService, PluginsController } from './plugins/plugins.controller';
import { SourcesController } from './sources/sources.controller';
import { SourcesService } from './sources/sources.service';

@Module({})
export class GatewayModule {
  static forRoot(infra: Infrastructure, auth: GatewayAuth, rpc: AuthRpcClient): DynamicModule {
    return {
      module: GatewayModule,
      controllers: [
        HealthController,
        MetricsController,
        JobsController,
        WorkersController,
        AuthController,
        AdminController,
        UsersController,
        ProteinsController,
        AnnotationsController,
        QuerySetsController,
        MaintenanceController,
        EmbeddingsController,
        PluginsController,
        EmbeddingMaintenanceController,
        PredictionsController,
        ScoringController,
        AnnotateController,
        ExperimentRunsController,
        CommunityController,
        StackController,
        RerankerModelsController,
        ScoringRerankersController,
        EvaluationsController,
        PredictionSetMetricsController,
        BenchmarkController,
        DatasetsController,
        SourcesController,
      ],
      providers: [
        { provide: INFRASTRUCTURE, useValue: infra },
        { provide: GATEWAY_AUTH, useValue: auth },
        { provide: AUTH_RPC_CLIENT, useValue: rpc },
        { provide: APP_FILTER, useFactory: () => new ProblemFilter(infra.logger.child('gateway.errors')) },
        // Order matters: credential gate, then the rate limiter (keyed on the verified principal),
        // then the route's role floor.
        { provide: APP_GUARD, useClass: EmailFlowsGuard },
        { provide: APP_GUARD, useClass: CredentialGateGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: RoleFloorGuard },
        JobsService,
        ReferenceService,
        EmbeddingsService,
        PluginRegistryService,
        PredictionsService,
        ScoringService,
        AnnotateService,
        RerankersService,
        EvaluationsService,
        RerankService,
        StackService,
        DatasetsService,
        SourcesService,
        ExperimentRunsService,
      ],
    };
  }
}
