import type { FastifyInstance } from 'fastify';
import { isJsonDepthWithin, jsonTooDeep } from '@svc/platform';

/**
 * The JSON body parser. The body is read up to `bodyLimitBytes` (a larger Content-Length is refused
 * before reading, a chunked body as soon as it passes the limit: 413 either way), its nesting depth
 * is scanned in the raw text (422 past `maxDepth`), and only then is it parsed, with Fastify's
 * prototype-poisoning checks. All of this happens before routing reaches the credential gate, and no
 * DTO transformation ever recurses deeper than the cap.
 */
export function installJsonBodyParser(
  fastify: FastifyInstance,
  limits: { bodyLimitBytes: number; maxDepth: number },
): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: limits.bodyLimitBytes },
    (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (!isJsonDepthWithin(text, limits.maxDepth)) {
        done(jsonTooDeep(limits.maxDepth), undefined);
        return;
      }
      void parse(request, text, done);
    },
  );
}
