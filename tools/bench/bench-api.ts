import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { createGateway } from '../../apps/gateway-api/src/app.factory';
import { createBenchWorld } from './bench-support';

/**
 * `npm run bench:api`: requests/s and latency of GET /v1/jobs/{id} and POST /v1/jobs against a
 * gateway on loopback, over a throw-away database and queue prefix (both removed afterwards).
 * Options: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 20).
 */
async function main(): Promise<void> {
  const seconds = Number(process.env['BENCH_SECONDS'] ?? 10);
  const connections = Number(process.env['BENCH_CONNECTIONS'] ?? 20);
  const world = await createBenchWorld({ SVC_DB_POOL_SIZE: '20' });
  const gateway = await createGateway(world.config);
  await gateway.infra.broker.waitUntilReady(10_000);
  try {
    const created = await fetch(`${gateway.url}/v1/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'ping', queue_name: 'svc.ping', payload: { message: 'bench' } }),
    });
    const { id: jobId } = (await created.json()) as { id: string };
    const get = await autocannon({ url: `${gateway.url}/v1/jobs/${jobId}`, connections, duration: seconds });
    const post = await autocannon({
      url: `${gateway.url}/v1/jobs`,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
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
    const rows = [
      { endpoint: 'GET /v1/jobs/{id}', result: get },
      { endpoint: 'POST /v1/jobs', result: post },
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
    process.stdout.write(`${JSON.stringify(rows)}\n`);
    // autocannon stops without waiting for its last requests; let them finish before closing.
    await new Promise((resolve) => setTimeout(resolve, 2000));
  } finally {
    await gateway.close();
    await world.dispose();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
