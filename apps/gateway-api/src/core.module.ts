import { DynamicModule, Global, Module } from '@nestjs/common';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { AuthRpcClient } from './auth/auth-rpc.client';
import { AUTH_RPC_CLIENT } from './auth/auth.controller';
import { GATEWAY_AUTH, GatewayAuth } from './auth/guards';

/** The process's infrastructure, credential gate and auth-service client, given to every feature module. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(infra: Infrastructure, auth: GatewayAuth, rpc: AuthRpcClient): DynamicModule {
    const providers = [
      { provide: INFRASTRUCTURE, useValue: infra },
      { provide: GATEWAY_AUTH, useValue: auth },
      { provide: AUTH_RPC_CLIENT, useValue: rpc },
    ];
    return { module: CoreModule, providers, exports: providers.map((p) => p.provide) };
  }
}
