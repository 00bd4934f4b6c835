import type { FastifyInstance } from 'fastify';
import { DomainError } from '@svc/contracts';

const UUID_SEGMENT =
  /(?<=\/)[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?=\/|$)/g;

/**
 * Lower-cases the UUID-shaped segments of a URL's path (the query string is left as it is), so that
 * `/jobs/3F2504E0-...` reaches the same row as its canonical spelling; ids are stored and compared in
 * lower case everywhere.
 */
export function lowerCaseUuidSegments(url: string): string {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  const normalised = path.replace(UUID_SEGMENT, (segment) => segment.toLowerCase());
  return query < 0 ? normalised : `${normalised}${url.slice(query)}`;
}

// NUL: PostgreSQL stores it in neither text nor jsonb. An unpaired UTF-16 surrogate: JSON.stringify
// writes it as an escape that jsonb refuses, and text would silently turn it into U+FFFD.
// eslint-disable-next-line no-control-regex -- finding the NUL character is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Paths (`payload.items[2].name`) of the strings and keys that hold a NUL character or an unpaired
 * surrogate; at most `limit` of them. Walks with its own stack, so no nesting depth can overflow it.
 */
export function findUnstorableText(value: unknown, limit = 20): string[] {
  const found: string[] = [];
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0 && found.length < limit) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (UNSTORABLE.test(current)) found.push(path);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1)
        pending.push({ value: current[i], path: `${path}[${i}]` });
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, child] = entries[i]!;
        const childPath = path === '' ? key : `${path}.${key}`;
        if (UNSTORABLE.test(key)) found.push(childPath);
        else pending.push({ value: child, path: childPath });
      }
    }
  }
  return found;
}

/** 422 naming every field whose text cannot be stored; nothing when there is none. */
export function rejectUnstorableText(value: unknown, what: string): void {
  const paths = findUnstorableText(value);
  if (paths.length === 0) return;
  throw new DomainError(
    'validation_error',
    `${what} holds a NUL character or an unpaired surrogate, which no field accepts`,
    {},
    paths.map((path) => ({
      path,
      message: 'must not contain a NUL character (\\u0000) or an unpaired surrogate',
    })),
  );
}

/**
 * Refuses a percent-encoded NUL anywhere in the URL (path or query) with 400 before routing does
 * any work. A raw NUL or other control byte in the request line or a header never gets here: Node's
 * HTTP parser answers those with 400 itself.
 */
export function installInputGuards(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request) => {
    if (/%00/i.test(request.originalUrl ?? request.url)) {
      throw new DomainError(
        'bad_request',
        'the URL holds a NUL character (%00), which no path or parameter accepts',
      );
    }
  });
}
