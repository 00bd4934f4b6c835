import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { DomainError } from '@svc/contracts';
import { Infrastructure } from '@svc/bootstrap';
import { Principal, requestInstance } from '@svc/platform';
import { abandonBody } from './abandon-body';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const ACCEPTED_BODY_TYPES = new Set(['application/json', 'multipart/form-data']);
const ROOT_ONLY = [
  /^\/health(\/ready)?\/?$/,
  /^\/docs(\/.*)?$/,
  /^\/openapi\.json$/,
  /^\/v1(\/.*)?$/,
  // The web dashboards: index.html and its built files.
  /^\/$/,
  /^\/assets\//,
];

/**
 * Legacy alias: every path outside /v1 (except health, docs, the OpenAPI file and the dashboards at
 * `/` and `/assets/`) is served by the /v1 route of the same name, so both forms reach one handler
 * and only /v1 appears in OpenAPI.
 */
export function rewriteLegacyUrl(url: string): string {
  const path = url.split('?')[0] ?? url;
  if (ROOT_ONLY.some((re) => re.test(path))) return url;
  return `/v1${url.startsWith('/') ? '' : '/'}${url}`;
}

export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^[\w.-]{1,128}$/.test(value) ? value : randomUUID();
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    startedAt?: bigint;
    /** Set when the body was refused before it was read to the end: the answer closes the connection. */
    closeConnection?: boolean;
  }
}

/**
 * Request id echo, one JSON log line per request, HTTP metrics, and 415 for bodies that are not JSON.
 * Errors thrown here reach Nest's error handler and so the problem+json filter.
 */
export function installRequestHooks(fastify: FastifyInstance, infra: Infrastructure): void {
  const logger = infra.logger.child('gateway.http');
  const metrics = infra.metrics;
  fastify.addHook('onRequest', async (request, reply) => {
    request.startedAt = process.hrtime.bigint();
    metrics.httpRequestsInFlight.inc();
    void reply.header('x-request-id', String(request.id));
  });
  fastify.addHook('onSend', async (request, reply) => {
    // A route that answered before reading its upload (a refusal) leaves the body unparsed.
    if (request.isMultipart() && !request.raw.readableEnded) abandonBody(request);
    if (request.closeConnection === true) void reply.header('connection', 'close');
  });
  fastify.addHook('onResponse', async (request, reply) => {
    metrics.httpRequestsInFlight.dec();
    const seconds =
      request.startedAt !== undefined ? Number(process.hrtime.bigint() - request.startedAt) / 1e9 : 0;
    const route = routeLabel(request);
    const labels = { method: request.method, route, status: reply.statusCode };
    metrics.httpRequestsTotal.inc(labels);
    metrics.httpRequestDurationSeconds.observe(labels, seconds);
    logger.info('request', {
      request_id: String(request.id),
      method: request.method,
      path: requestInstance(request),
      route,
      status: reply.statusCode,
      duration_ms: Number((seconds * 1000).toFixed(2)),
    });
  });
  fastify.addHook('preValidation', async (request) => {
    if (!BODY_METHODS.has(request.method)) return;
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (type === '' || ACCEPTED_BODY_TYPES.has(type)) return;
    throw new DomainError(
      'unsupported_media_type',
      `content type '${type}' is not accepted; send application/json`,
    );
  });
}

function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}
