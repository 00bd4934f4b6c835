import { pipeline, Readable, Transform } from 'node:stream';
import { SourceError } from './source-error';

const DEADLINE_SETTING = 'SVC_SOURCE_DEADLINE_SECONDS';
const RATE_SETTING = 'SVC_SOURCE_MIN_BYTES_PER_SECOND';

/** How long an http(s) source may take and how slowly it may send (docs/security.md, "Bounded reading"). */
export interface TransferLimits {
  /** Longest a transfer may take, from its first request (redirects included) to its last byte. */
  readonly deadlineMs: number;
  /** Fewest bytes per second the body must average over each window; 0 sets no minimum. */
  readonly minBytesPerSecond: number;
  /** The window the rate is averaged over. */
  readonly rateWindowMs: number;
}

/** Why a transfer must stop, or null while it keeps within its limits. */
export type TransferVerdict =
  { kind: 'timeout' } | { kind: 'too_slow'; bytes: number; elapsedMs: number } | null;

/**
 * The bookkeeping of one transfer, without timers or I/O: the deadline counts from `startedAt`;
 * the rate is averaged over consecutive windows of the body, each starting when the last one
 * passed. Time during which the reader held the stream back (`held`) is not the source's: the
 * window starts again then, so a slow consumer never makes a fast source look slow.
 */
export class TransferMeter {
  private windowStart: number;
  private windowBytes = 0;

  constructor(
    private readonly limits: TransferLimits,
    private readonly startedAt: number,
    bodyStartedAt: number = startedAt,
  ) {
    this.windowStart = bodyStartedAt;
  }

  received(bytes: number): void {
    this.windowBytes += bytes;
  }

  /** The reader is holding the stream back at `now`: the current window starts over. */
  held(now: number): void {
    this.windowStart = now;
    this.windowBytes = 0;
  }

  /** The verdict at `now`; a window that passed with enough bytes is closed and the next begins. */
  check(now: number): TransferVerdict {
    if (now - this.startedAt >= this.limits.deadlineMs) return { kind: 'timeout' };
    if (this.limits.minBytesPerSecond <= 0) return null;
    const elapsedMs = now - this.windowStart;
    if (elapsedMs < this.limits.rateWindowMs) return null;
    if (this.windowBytes < (this.limits.minBytesPerSecond * elapsedMs) / 1000)
      return { kind: 'too_slow', bytes: this.windowBytes, elapsedMs };
    this.windowStart = now;
    this.windowBytes = 0;
    return null;
  }
}

/** A URL as messages may show it: no credentials, query or fragment (they may hold secrets). */
export function sourceLabel(source: string | URL): string {
  try {
    const url = typeof source === 'string' ? new URL(source) : source;
    return `${url.origin}${url.pathname}`;
  } catch {
    return 'the source';
  }
}

/** The failure of a transfer that broke its limits, naming the setting that decides. */
export function transferError(
  verdict: NonNullable<TransferVerdict>,
  label: string,
  limits: TransferLimits,
): SourceError {
  if (verdict.kind === 'timeout')
    return new SourceError(
      'source_timeout',
      `${label} did not finish within ${limits.deadlineMs / 1000} s (${DEADLINE_SETTING})`,
    );
  return new SourceError(
    'source_too_slow',
    `${label} sent ${verdict.bytes} bytes in the last ${limits.rateWindowMs / 1000} s, less than ` +
      `${limits.minBytesPerSecond} bytes per second (${RATE_SETTING})`,
  );
}

/**
 * The body of an http(s) answer, held to `limits`: it fails with `source_timeout` at the deadline
 * (counted from `startedAt`, the first request) and with `source_too_slow` when a window passes
 * with too few bytes while the reader was waiting for them. Destroying the returned stream ends
 * the answer's body too.
 */
export function limitTransfer(
  body: Readable,
  limits: TransferLimits,
  options: { startedAt: number; label: string; now?: () => number },
): Readable {
  const now = options.now ?? Date.now;
  const meter = new TransferMeter(limits, options.startedAt, now());
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      meter.received(chunk.length);
      callback(null, chunk);
    },
  });
  const out = pipeline(body, counter, () => undefined);
  const fail = (verdict: NonNullable<TransferVerdict>): void => {
    stop();
    out.destroy(transferError(verdict, options.label, limits));
  };
  const tick = (): void => {
    // Backpressure: the reader has not taken what arrived, so the source is not the one waiting.
    if (body.isPaused() || counter.readableLength >= counter.readableHighWaterMark) meter.held(now());
    const verdict = meter.check(now());
    if (verdict !== null) fail(verdict);
  };
  const interval = setInterval(tick, Math.max(50, Math.min(1000, limits.rateWindowMs / 4)));
  const deadline = setTimeout(
    () => fail({ kind: 'timeout' }),
    Math.max(0, options.startedAt + limits.deadlineMs - now()),
  );
  interval.unref();
  deadline.unref();
  function stop(): void {
    clearInterval(interval);
    clearTimeout(deadline);
  }
  // Once the source has sent everything, the reader's pace is its own affair.
  body.once('end', stop);
  out.once('close', stop);
  return out;
}
