import type { FastifyRequest } from 'fastify';

/** The most of a refused body that is read and dropped to keep the connection open for the next request. */
const DRAIN_LIMIT_BYTES = 4 * 1024 * 1024;

/** Bodies already being dropped. */
const abandoned = new WeakSet<object>();

/**
 * Stops parsing a body the route refused. What is left of a small body is read and dropped, so the
 * client reads the refusal and may reuse the connection; a large or unbounded one (chunked) is not:
 * the answer says `Connection: close` and the socket is closed once it is sent, or as soon as more
 * than the drain limit arrives.
 */
export function abandonBody(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed || abandoned.has(raw)) return;
  abandoned.add(raw);
  raw.unpipe();
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (!Number.isFinite(declared) || declared > DRAIN_LIMIT_BYTES) request.closeConnection = true;
  let drained = 0;
  raw.removeAllListeners('data');
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) raw.destroy();
  });
  raw.resume();
}
