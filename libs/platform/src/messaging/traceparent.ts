import { randomBytes } from 'node:crypto';

const TRACEPARENT_RE = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** A W3C trace context header value; a new trace when no valid parent is given. */
export function childTraceparent(parent?: string | null): string {
  const span = randomBytes(8).toString('hex');
  if (parent && TRACEPARENT_RE.test(parent)) {
    const [, trace, , flags] = parent.split('-');
    return `00-${trace}-${span}-${flags}`;
  }
  return `00-${randomBytes(16).toString('hex')}-${span}-01`;
}

export function isTraceparent(value: unknown): value is string {
  return typeof value === 'string' && TRACEPARENT_RE.test(value);
}
