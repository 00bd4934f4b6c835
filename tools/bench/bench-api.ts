import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { freePort } from '@svc/testing';
import { createBenchWorld, startApp, stopApp } from './bench-support';

const ADMIN = { email: 'bench-admin@svc.test', password: 'bench-admin-password-1' };

/**
 * `npm run bench:api`: requests/s and latency of GET /v1/jobs/{id} and POST /v1/jobs with the
 * credential gate on (an API key on every request, checked by the gateway, looked up through the
 * auth service), against the gateway and the auth service as their own processes (as deployed), over
 * a throw-away database and queue prefix. The load generator runs in this process, so on 2 cores the
 * gateway has one core to itself. The same run measures a bare node:http server answering the same
 * job JSON from memory, in its own process: the ceiling of this machine and load generator.
 * Options: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 20).
 */
async function main(): Promise<void> {
  const seconds = Number(process.env['BENCH_SECONDS'] ?? 10);
  const connections = Number(process.env['BENCH_CONNECTIONS'] ?? 20);
  const port = await freePort();
  const world = await createBenchWorld({
    SVC_DB_POOL_SIZE: '20',
    SVC_AUTHN_REQUIRED: 'true',
    SVC_PORT: String(port),
    SVC_BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    SVC_BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
  });
  const children: ChildProcess[] = [];
  try {
    children.push(await startApp('auth-service', world.env, 'auth-service ready'));
    // BENCH_PROFILE=DIR writes the gateway's CPU profile there (node --cpu-prof) when it stops.
    const profile = process.env['BENCH_PROFILE'];
    const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
    children.push(await startApp('gateway-api', world.env, 'gateway listening', flags));
    const url = `http://127.0.0.1:${port}`;
    const login = await fetch(`${url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const minted = await fetch(`${url}/v1/auth/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: 'bench' }),
    });
    const { key } = (await minted.json()) as { key: string };
    const headers = { 'x-api-key': key };
    const created = await fetch(`${url}/v1/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ operation: 'ping', queue_name: 'svc.ping', payload: { message: 'bench' } }),
    });
    const { id: jobId } = (await created.json()) as { id: string };
    const jobUrl = `${url}/v1/jobs/${jobId}`;
    const body = await (await fetch(jobUrl, { headers })).text();
    await autocannon({ url: jobUrl, headers, connections, duration: 2 }); // warm-up
    const get = await autocannon({ url: jobUrl, headers, connections, duration: seconds });
    const post = await autocannon({
      url: `${url}/v1/jobs`,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          // A fresh payload per request, so deduplication never answers 409.
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({
              operation: 'ping',
              queue_name: 'svc.ping',
              payload: { message: randomUUID() },
            }),
          }),
        },
      ],
    });
    const ceiling = await bareServerRate(body, connections, seconds);
    const rows = [
      { endpoint: 'GET /v1/jobs/{id} (API key)', result: get },
      { endpoint: 'POST /v1/jobs (API key)', result: post },
      { endpoint: 'bare node:http, same JSON', result: ceiling },
    ].map(({ endpoint, result }) => ({
      endpoint,
      requests_per_s: Math.round(result.requests.average),
      p50_ms: result.latency.p50,
      p99_ms: result.latency.p99,
      non_2xx: result.non2xx,
      errors: result.errors,
    }));
    process.stdout.write(`connections=${connections} duration=${seconds}s\n`);
    console.table(rows);
    process.stdout.write(
      `${JSON.stringify({
        rows,
        get_vs_bare_server: Number((get.requests.average / ceiling.requests.average).toFixed(2)),
      })}\n`,
    );
    // autocannon stops without waiting for its last requests; let them finish before closing.
    await new Promise((done) => setTimeout(done, 2000));
  } finally {
    for (const child of children.reverse()) await stopApp(child);
    await world.dispose();
  }
}

/** A node:http server in its own process answering `body` for every request, under the same load. */
async function bareServerRate(
  body: string,
  connections: number,
  seconds: number,
): Promise<autocannon.Result> {
  const port = await freePort();
  const script = `require('node:http').createServer((q, s) => { s.writeHead(200, { 'content-type': 'application/json' }); s.end(${JSON.stringify(body)}); }).listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'pipe' });
  await new Promise((done) => child.stdout.once('data', done));
  try {
    return await autocannon({ url: `http://127.0.0.1:${port}/`, connections, duration: seconds });
  } finally {
    await stopApp(child);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
