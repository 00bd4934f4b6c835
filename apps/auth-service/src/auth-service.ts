import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AUTH_RPC_QUEUE } from '@svc/contracts';
import { InfrastructureOptions, openInfrastructure, resolveServiceSecrets } from '@svc/bootstrap';
import {
  AppConfig,
  InProcessRpcServer,
  JwtCodec,
  Mailer,
  NestLoggerAdapter,
  PasswordHasher,
  processQueues,
} from '@svc/platform';
import { BootstrapService } from './admin/bootstrap.service';
import { AuthModule } from './auth.module';

const RPC_PREFETCH = 8;

export interface RunningAuthService {
  app: NestFastifyApplication;
  close(): Promise<void>;
}

/** Boots auth-service: RPC consumer on svc.auth, health and metrics on SVC_METRICS_PORT, bootstrap admin. */
export async function startAuthService(
  config: AppConfig,
  options: InfrastructureOptions = {},
): Promise<RunningAuthService> {
  const infra = await openInfrastructure('auth-service', config, options);
  const secrets = await resolveServiceSecrets(config, infra.repos.secrets, infra.logger);
  const context = {
    infra,
    jwt: new JwtCodec(secrets.jwtSecret),
    passwords: new PasswordHasher(),
    mailer: Mailer.fromConfig(config),
  };
  const app = await NestFactory.create<NestFastifyApplication>(
    AuthModule.forRoot(context),
    new FastifyAdapter(),
    {
      logger: new NestLoggerAdapter(infra.logger.child('auth-service.nest')),
    },
  );
  const queue = `${config.queuePrefix}${AUTH_RPC_QUEUE}`;
  app.connectMicroservice<MicroserviceOptions>(
    config.mode === 'standalone'
      ? { strategy: new InProcessRpcServer(processQueues(), queue, RPC_PREFETCH) }
      : {
          transport: Transport.RMQ,
          options: {
            urls: [config.amqpUrl],
            queue,
            queueOptions: { durable: true },
            prefetchCount: RPC_PREFETCH,
          },
        },
    { inheritAppConfig: true },
  );
  await app.get(BootstrapService).ensureAdmin();
  await app.startAllMicroservices();
  if (config.metricsPort !== null) await app.listen(config.metricsPort, config.host);
  else await app.init();
  infra.logger.info('auth-service ready', {
    queue: `${config.queuePrefix}${AUTH_RPC_QUEUE}`,
    smtp: context.mailer !== null,
  });
  return {
    app,
    async close() {
      await app.close();
      await infra.close();
    },
  };
}
