// Writes the gateway's OpenAPI document to docs/openapi.json (paths and schemas
// sorted, 2-space JSON). `npm run openapi` after changing a route; a test fails while the served
// document and the committed one differ. Needs the local PostgreSQL and RabbitMQ (the gateway is
// built against a throw-away database and queue prefix, removed afterwards).
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createGateway } from '../../apps/gateway-api/src/app.factory';
import { createBenchWorld } from '../bench/bench-support';

export const OPENAPI_FILE = resolve(__dirname, '..', '..', 'docs', 'openapi.json');

async function main(): Promise<void> {
  const world = await createBenchWorld();
  try {
    const gateway = await createGateway(world.config, { listen: false });
    try {
      writeFileSync(OPENAPI_FILE, `${JSON.stringify(gateway.openapi, null, 2)}\n`);
      const operations = Object.values(gateway.openapi.paths).reduce(
        (n, item) => n + Object.keys(item).length,
        0,
      );
      process.stdout.write(`wrote ${join('docs', 'openapi.json')}: ${operations} operations\n`);
    } finally {
      await gateway.close();
    }
  } finally {
    await world.dispose();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
