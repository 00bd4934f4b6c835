import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import { Infrastructure, openInfrastructure, resolveServiceSecrets } from '@svc/bootstrap';
import { FieldErrorView, ProblemView } from '@svc/contracts';
import {
  AppConfig,
  installInputGuards,
  JwtCodec,
  lowerCaseUuidSegments,
  NestLoggerAdapter,
} from '@svc/platform';
import { AuthRpcClient } from './auth/auth-rpc.client';
import { CredentialFailureLimiter } from './auth/credential-failures';
import { CredentialGate } from './auth/credential-gate';
import { GatewayAuth } from './auth/guards';
import { LimitsService } from './auth/limits.service';
import { installVisitorEvents } from './auth/visitor-events';
import { GatewayModule } from './gateway.module';
import { withProblemResponses } from './http/api-doc';
import { installJsonBodyParser } from './http/json-body';
import { installMethodNotAllowed } from './http/method-not-allowed';
import { installRequestHooks, requestIdOf, rewriteLegacyUrl } from './http/request-hooks';
import { installUploadLimits } from './reference/multipart';
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
    rewriteUrl: (req: IncomingMessage) => rewriteLegacyUrl(lowerCaseUuidSegments(req.url ?? '/')),
    genReqId: (req: IncomingMessage) => requestIdOf(req.headers['x-request-id']),
    // Every body parser reads at most this much (413 beyond, while reading); multipart routes set their own.
    bodyLimit: config.security.jsonBodyLimitBytes,
    // X-Forwarded-For is believed only from the configured proxies; otherwise the peer is the client.
    trustProxy: config.security.trustedProxies.length > 0 ? [...config.security.trustedProxies] : false,
  });
  installMethodNotAllowed(adapter.getInstance());
  const secrets = await resolveServiceSecrets(config, infra.repos.secrets, infra.logger);
  const jwt = new JwtCodec(secrets.jwtSecret);
  const limits = new LimitsService(config, infra.repos.quotas);
  const failures = new CredentialFailureLimiter(limits);
  const auth: GatewayAuth = {
    gate: new CredentialGate(config, infra.repos, jwt, secrets.addressSecret, failures),
    limits,
    failures,
    jwt,
    authnRequired: config.authnRequired,
    smtpEnabled: config.smtp.enabled,
  };
  const rpc = new AuthRpcClient(config);
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.forRoot(infra, auth, rpc),
    adapter,
    {
      logger: new NestLoggerAdapter(infra.logger.child('gateway.nest')),
      // The JSON parser below replaces Nest's: it also caps the nesting depth before parsing.
      bodyParser: false,
    },
  );
  const fastify = app.getHttpAdapter().getInstance();
  installJsonBodyParser(fastify, {
    bodyLimitBytes: config.security.jsonBodyLimitBytes,
    maxDepth: config.security.jsonMaxDepth,
  });
  await app.register(fastifyCookie);
  // Files are limited per route: FASTA uploads by fasta_upload_limit_bytes, reranker files up to 100 MB.
  await app.register(fastifyMultipart, { limits: { fileSize: 100 * 1024 * 1024, files: 3, fields: 20 } });
  installUploadLimits(fastify, { fastaBytes: config.security.fastaUploadLimitBytes });
  installRequestHooks(fastify, infra);
  installInputGuards(fastify);
  installVisitorEvents(fastify, infra.repos.visitors, infra.logger.child('gateway.visitors'));
  await installWebUi(fastify, options.webDir ?? DEFAULT_WEB_DIR);
  app.enableCors({ origin: [...config.allowedOrigins], credentials: true });
  app.setGlobalPrefix('v1', { exclude: ['health', 'health/ready'] });
  const openapi = buildOpenApi(app);
  SwaggerModule.setup('docs', app, openapi, { useGlobalPrefix: false, jsonDocumentUrl: 'openapi.json' });
  // The same documents under /v1, where every other router lives.
  SwaggerModule.setup('v1/docs', app, openapi, {
    useGlobalPrefix: false,
    jsonDocumentUrl: 'v1/openapi.json',
  });
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
  const document = withProblemResponses(
    SwaggerModule.createDocument(app, config, { extraModels: [ProblemView, FieldErrorView] }),
  );
  const sortedPaths = Object.fromEntries(
    Object.entries(document.paths).sort(([a], [b]) => a.localeCompare(b)),
  );
  const schemas = document.components?.schemas ?? {};
  const sortedSchemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return { ...document, paths: sortedPaths, components: { ...document.components, schemas: sortedSchemas } };
}
