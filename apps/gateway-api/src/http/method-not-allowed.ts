import { MethodNotAllowedException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

interface RoutePattern {
  method: string;
  matches: RegExp;
}

function patternOf(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((segment) =>
      segment.startsWith(':') || segment === '*' ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

/**
 * 405 with `Allow` for a path that exists under other methods (Fastify answers 404 for every
 * unmatched method and path). Routes are recorded as they are registered, so this must be installed
 * before the application registers its routes.
 */
export function installMethodNotAllowed(fastify: FastifyInstance): void {
  const routes: RoutePattern[] = [];
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods)
      routes.push({ method: String(method).toUpperCase(), matches: patternOf(route.url) });
  });
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url !== undefined) return;
    const path = (request.url.split('?')[0] ?? '/').replace(/\/+$/, '') || '/';
    const allowed = METHODS.filter((method) =>
      routes.some((r) => r.method === method && r.matches.test(path)),
    );
    if (allowed.length === 0 || allowed.includes(request.method as (typeof METHODS)[number])) return;
    void reply.header('allow', allowed.join(', '));
    throw new MethodNotAllowedException(
      `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`,
    );
  });
}
