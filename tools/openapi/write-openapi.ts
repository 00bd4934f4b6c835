// Writes the gateway's OpenAPI document to docs/openapi.json (paths and schemas sorted, 2-space
// JSON) and the client types generated from it (libs/client/src/generated). `npm run openapi` after
// changing a route; tests fail while the served document, the committed one and the types differ. Needs the local PostgreSQL and RabbitMQ (the gateway is
// built against a throw-away database and queue prefix, removed afterwards).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createGateway } from '../../apps/gateway-api/src/app.factory';
import { createBenchWorld } from '../bench/bench-support';
import { CLIENT_TYPES_FILE, generateClientTypes, OPENAPI_FILE } from './client-types';
import { JOB_ERRORS_FILE, jobErrorsDocument } from './job-errors-doc';

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
      // The generator reads the document as committed, so the types are those of the file.
      const document = JSON.parse(JSON.stringify(gateway.openapi)) as unknown;
      mkdirSync(dirname(CLIENT_TYPES_FILE), { recursive: true });
      writeFileSync(CLIENT_TYPES_FILE, await generateClientTypes(document));
      process.stdout.write(`wrote ${relative(process.cwd(), CLIENT_TYPES_FILE)}\n`);
      writeFileSync(JOB_ERRORS_FILE, jobErrorsDocument());
      process.stdout.write(`wrote ${relative(process.cwd(), JOB_ERRORS_FILE)}\n`);
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
