import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { addressHash } from '@svc/domain';
import { VisitorEvent, VisitorRepository } from '@svc/persistence';
import { Logger } from '@svc/platform';

const ASSET_PATH =
  /(^\/docs\/)|(\.(js|css|map|png|svg|ico|jpg|jpeg|gif|woff2?|ttf|txt)$)|(^\/metrics$)|(^\/health)/;

/** A random 32-byte salt held only in memory and replaced at each new UTC day. */
export class DailySalt {
  private day = '';
  private salt = Buffer.alloc(0);

  current(now = new Date()): { day: string; salt: Buffer } {
    const day = now.toISOString().slice(0, 10);
    if (day !== this.day) {
      this.day = day;
      this.salt = randomBytes(32);
    }
    return { day, salt: this.salt };
  }
}

const FLUSH_INTERVAL_MS = 1000;
const FLUSH_SIZE = 500;

/**
 * One VisitorEvent per GET to a non-asset path; the address itself is never stored. Rows are
 * buffered and written in one statement per second (or per 500 rows), so reads do not pay for a
 * database write each.
 */
export function installVisitorEvents(
  fastify: FastifyInstance,
  visitors: VisitorRepository,
  logger: Logger,
): void {
  const salt = new DailySalt();
  let buffer: VisitorEvent[] = [];
  const flush = async (): Promise<void> => {
    if (buffer.length === 0) return;
    const rows = buffer;
    buffer = [];
    await visitors.appendMany(rows).catch((error: unknown) => {
      logger.warn('visitor events not recorded', { rows: rows.length, error: (error as Error).message });
    });
  };
  const timer = setInterval(() => void flush(), FLUSH_INTERVAL_MS);
  timer.unref();
  fastify.addHook('onClose', async () => {
    clearInterval(timer);
    await flush();
  });
  fastify.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET') return;
    const path = (request.originalUrl ?? request.url).split('?')[0] ?? '/';
    if (ASSET_PATH.test(path)) return;
    const { day, salt: value } = salt.current();
    buffer.push({
      visitorHash: addressHash(value, request.ip),
      day,
      method: 'GET',
      path: path.slice(0, 500),
      status: reply.statusCode,
    });
    if (buffer.length >= FLUSH_SIZE) void flush();
  });
}
