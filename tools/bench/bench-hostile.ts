import { freePort } from '@svc/testing';
import {
  CLOSED_WHILE_SENDING,
  measureLargeBodies,
  measureLargeUploads,
  MeasuredProcess,
  startMeasuredApp,
} from '../../apps/gateway-api/test/security/hostile-load';
import { createBenchWorld } from './bench-support';

const MB = 1024 * 1024;
const ADMIN = { email: 'bench-admin@svc.test', password: 'bench-admin-password-1' };

/**
 * `npm run bench:hostile`: how the gateway holds up against two hostile callers, with authentication
 * on, over a throw-away database and queue prefix (both removed afterwards).
 * 1. Login throttle: sequential wrong passwords for one account from one address until the first 429
 *    (the start of that (account, address) pair's delay); prints the attempts, the milliseconds from
 *    the first failure to the first 429, and its Retry-After (login_delay_seconds).
 * 2. Large bodies: eight concurrent anonymous 50 MB JSON bodies; prints the gateway's RSS before,
 *    its peak while they were answered, and the delta (the acceptance bound is +50 MB).
 * 3. Large uploads: four concurrent anonymous 190 MB FASTA uploads to `/v1/annotate` (two declaring
 *    their length, two chunked), then one anonymous upload of three 190 MB files; prints the RSS delta
 *    (bound +50 MB) and the `/health` latency while they were answered (p99 bound 100 ms).
 * The gateway and auth-service run as processes of their own, so the RSS is the gateway's alone.
 * Options: BENCH_BODY_MB (default 50), BENCH_UPLOAD_MB (default 190).
 */
async function main(): Promise<void> {
  const bodyMb = Number(process.env['BENCH_BODY_MB'] ?? 50);
  const uploadMb = Number(process.env['BENCH_UPLOAD_MB'] ?? 190);
  const port = await freePort();
  const world = await createBenchWorld({
    SVC_AUTHN_REQUIRED: 'true',
    SVC_BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    SVC_BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    SVC_HOST: '127.0.0.1',
    SVC_LOG_LEVEL: 'info',
  });
  const started: MeasuredProcess[] = [];
  try {
    started.push(await startMeasuredApp('auth-service', world.env, 'auth-service ready'));
    const gateway = await startMeasuredApp(
      'gateway-api',
      { ...world.env, SVC_PORT: String(port) },
      'gateway listening',
    );
    started.push(gateway);
    const url = `http://127.0.0.1:${port}`;

    const throttle = await measureLoginThrottle(url, world.config.security.loginMaxFailures + 5);
    const bodies = await measureLargeBodies(url, gateway.pid, bodyMb * MB);
    const deltaMb = (bodies.peakBytes - bodies.beforeBytes) / MB;
    const uploads = await measureLargeUploads(url, gateway.pid, uploadMb * MB);
    const uploadDeltaMb = (uploads.peakBytes - uploads.beforeBytes) / MB;
    const statusText = (statuses: number[]) =>
      statuses.map((s) => (s === CLOSED_WHILE_SENDING ? 'closed' : s)).join(' ');
    const rows = [
      {
        measure: 'login throttle',
        result: `429 on attempt ${throttle.attempt} (${throttle.failures} failures of 401 before it)`,
        value: `${throttle.msFromFirstFailure} ms from the first failure to the first 429, Retry-After ${throttle.retryAfter} s`,
      },
      {
        measure: `8 x ${bodyMb} MB anonymous JSON bodies`,
        result: `statuses ${bodies.statuses.map((s) => (s === CLOSED_WHILE_SENDING ? 'closed' : s)).join(' ')}`,
        value: `RSS ${(bodies.beforeBytes / MB).toFixed(1)} MB -> peak ${(bodies.peakBytes / MB).toFixed(1)} MB (delta ${deltaMb.toFixed(1)} MB, bound +50 MB)`,
      },
      {
        measure: `4 x ${uploadMb} MB + 1 x 3 x ${uploadMb} MB anonymous uploads`,
        result: `statuses ${statusText(uploads.statuses)} | ${statusText([uploads.threePartStatus])}`,
        value: `RSS ${(uploads.beforeBytes / MB).toFixed(1)} MB -> peak ${(uploads.peakBytes / MB).toFixed(1)} MB (delta ${uploadDeltaMb.toFixed(1)} MB, bound +50 MB); /health p50 ${uploads.health.p50Ms.toFixed(1)} ms, p99 ${uploads.health.p99Ms.toFixed(1)} ms, max ${uploads.health.maxMs.toFixed(1)} ms over ${uploads.health.count} probes (bound p99 100 ms)`,
      },
    ];
    console.table(rows);
    process.stdout.write(
      `${JSON.stringify({
        login_throttle: {
          first_429_attempt: throttle.attempt,
          failures_before: throttle.failures,
          ms_from_first_failure: throttle.msFromFirstFailure,
          retry_after_seconds: throttle.retryAfter,
        },
        large_bodies: {
          body_mb: bodyMb,
          statuses: bodies.statuses,
          rss_before_mb: Number((bodies.beforeBytes / MB).toFixed(1)),
          rss_peak_mb: Number((bodies.peakBytes / MB).toFixed(1)),
          rss_delta_mb: Number(deltaMb.toFixed(1)),
          within_bound: deltaMb < 50,
        },
        large_uploads: {
          upload_mb: uploadMb,
          statuses: uploads.statuses,
          three_part_status: uploads.threePartStatus,
          rss_before_mb: Number((uploads.beforeBytes / MB).toFixed(1)),
          rss_peak_mb: Number((uploads.peakBytes / MB).toFixed(1)),
          rss_delta_mb: Number(uploadDeltaMb.toFixed(1)),
          health_p50_ms: Number(uploads.health.p50Ms.toFixed(1)),
          health_p99_ms: Number(uploads.health.p99Ms.toFixed(1)),
          health_max_ms: Number(uploads.health.maxMs.toFixed(1)),
          health_probes: uploads.health.count,
          within_bound: uploadDeltaMb < 50 && uploads.health.p99Ms < 100,
        },
      })}\n`,
    );
  } finally {
    for (const app of started.reverse()) app.stop();
    await world.dispose();
  }
}

/**
 * Sequential wrong passwords for one registered account from this one address, until the first 429
 * (or `maxAttempts`): the (account, address) pair's delay, which only this address has to wait out.
 */
async function measureLoginThrottle(
  url: string,
  maxAttempts: number,
): Promise<{ attempt: number; failures: number; msFromFirstFailure: number; retryAfter: number }> {
  let firstFailureAt: number | null = null;
  let failures = 0;
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    const res = await fetch(`${url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, password: `wrong-password-${attempt}` }),
    });
    await res.arrayBuffer();
    const now = performance.now();
    if (res.status === 401) {
      failures += 1;
      firstFailureAt ??= now;
    } else if (res.status === 429) {
      return {
        attempt,
        failures,
        msFromFirstFailure: Math.round(now - (firstFailureAt ?? now)),
        retryAfter: Number(res.headers.get('retry-after')),
      };
    } else {
      throw new Error(`login answered ${res.status} on attempt ${attempt}`);
    }
  }
  throw new Error(`no 429 after ${maxAttempts} wrong passwords`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
