import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where `npm run build:web` writes the dashboards (index.html plus hashed files under assets/). */
export const DEFAULT_WEB_DIR = resolve(__dirname, '..', '..', '..', '..', 'dist', 'web');

// The bundle loads nothing from other origins: no fonts, CDNs or inline scripts.
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const NOT_BUILT = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Dashboards not built</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
<h1>Dashboards not built</h1>
<p>The web dashboards have not been built in this checkout. Build them with
<code>npm run build:web</code> (or start everything with <code>npm start</code>, which builds them when
missing), then reload this page.</p>
<p>The API is served under <a href="/v1/jobs">/v1</a>; its documentation is at <a href="/docs">/docs</a>.</p>
</body>
</html>
`;

/**
 * Serves the single-page dashboards: index.html at `/` and the built files under `/assets/`, two paths
 * no API route uses (every API path lives under /v1 or its legacy root alias). index.html is read per
 * request, so a rebuild shows without a restart; without a build `/` explains how to make one.
 */
export async function installWebUi(
  fastify: FastifyInstance,
  webDir: string = DEFAULT_WEB_DIR,
): Promise<void> {
  const indexFile = join(webDir, 'index.html');
  const assetsDir = join(webDir, 'assets');
  fastify.get('/', async (_request, reply) => {
    const built = existsSync(indexFile);
    const html = built ? await readFile(indexFile, 'utf8') : NOT_BUILT;
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .send(html);
  });
  if (existsSync(assetsDir)) {
    // Asset names carry a content hash, so a browser may keep them for good.
    await fastify.register(fastifyStatic, {
      root: assetsDir,
      prefix: '/assets/',
      decorateReply: false,
      immutable: true,
      maxAge: '365d',
      index: false,
    });
  }
}
