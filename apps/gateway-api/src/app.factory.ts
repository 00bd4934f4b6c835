import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import { Infrastructure, openInfrastructure, resolveServiceSecrets } from '@svc/jobs';
import { AppConfig, JwtCodec, NestLoggerAdapter } from '@svc/platform';
import { AuthRpcClient } from './auth/auth-rpc.client';
import { CredentialGate } from './auth/credential-gate';
import { GatewayAuth } from './auth/guards';
import { LimitsService } from './auth/limits.service';
import { installVisitorEvents } from './auth/visitor-events';
import { GatewayModule } from './gateway.module';
import { installRequestHooks, requestIdOf, rewriteLegacyUrl } from './http/request-hooks';
import { DEFAULT_WEB_DIR, installWebUi } from './web/web-ui';

export const API_TITLE = 'Protein Function Annotation Service';
export const API_VERSION = '1.0.0';

export interface Gateway {
  app: NestFastifyApplication;
  infra: Infrastructure;
  auth: GatewayAuth;
  openapi: OpenAPIObject;
  /** The bound address, once listening. */
  url: string;
  close(): Promise<void>;
}

export interface GatewayOptions {
  listen: boolean;
  /** The built dashboards (index.html and assets/); the workspace's dist/web by default. */
  webDir?: string;
}

/** Builds the HTTP gateway over an opened infrastructure; `listen` binds it (port 0 for tests). */
export async function createGateway(
  config: AppConfig,
  options: GatewayOptions = { listen: true },
): Promise<Gateway> {
  const infra = await openInfrastructure('gateway-api', config);
  const adapter = new FastifyAdapter({
    rewriteUrl: (req: IncomingMessage) => rewriteLegacyUrl(req.url ?? '/'),
    genReqId: (req: IncomingMessage) => requestIdOf(req.headers['x-request-id']),
    bodyLimit: 50 * 1024 * 1024,
    trustProxy: true,
  });
  const secrets = await resolveServiceSecrets(config, infra.db, infra.logger);
  const jwt = new JwtCodec(secrets.jwtSecret);
  const auth: GatewayAuth = {
    gate: new CredentialGate(config, infra.db, jwt, secrets.addressSecret),
    limits: new LimitsService(config, infra.db),
    jwt,
    authnRequired: config.authnRequired,
  };
  const rpc = new AuthRpcClient(config);
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.forRoot(infra, auth, rpc),
    adapter,
    {
      logger: new NestLoggerAdapter(infra.logger.child('gateway.nest')),
    },
  );
  const fastify = app.getHttpAdapter().getInstance();
  await app.register(fastifyCookie);
  // FASTA uploads up to 50 MB (413 beyond); reranker files up to 100 MB are limited per route.
  await app.register(fastifyMultipart, { limits: { fileSize: 100 * 1024 * 1024, files: 3, fields: 20 } });
  installRequestHooks(fastify, infra);
  installVisitorEvents(fastify, infra.db, infra.logger.child('gateway.visitors'));
  await installWebUi(fastify, options.webDir ?? DEFAULT_WEB_DIR);
  app.enableCors({ origin: [...config.allowedOrigins], credentials: true });
  app.setGlobalPrefix('v1', { exclude: ['health', 'health/ready'] });
  const openapi = buildOpenApi(app);
  SwaggerModule.setup('docs', app, openapi, { useGlobalPrefix: false, jsonDocumentUrl: 'openapi.json' });
  let url = '';
  if (options.listen) {
    await app.listen(config.port, config.host);
    url = await app.getUrl();
    url = url.replace('[::1]', '127.0.0.1');
  } else {
    await app.init();
  }
  infra.logger.info('gateway listening', { url, queue_prefix: config.queuePrefix || null });
  return {
    app,
    infra,
    auth,
    openapi,
    url,
    async close() {
      await app.close();
      await rpc.close();
      await infra.close();
    },
  };
}

/** The OpenAPI document, with paths and schemas sorted so that a committed copy diffs cleanly. */
export function buildOpenApi(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(API_TITLE)
    .setVersion(API_VERSION)
    .setDescription(
      'GO term prediction, evaluation and benchmarking. Errors are application/problem+json (RFC 7807).',
    )
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }, 'apiKey')
    .addBearerAuth()
    .build();
  const document = SwaggerModule.createDocument(app, config);
  const sortedPaths = Object.fromEntries(
    Object.entries(document.paths).sort(([a], [b]) => a.localeCompare(b)),
  );
  const schemas = document.components?.schemas ?? {};
  const sortedSchemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return { ...document, paths: sortedPaths, components: { ...document.components, schemas: sortedSchemas } };
}
