import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpClient, testConfig, WORKSPACE_ROOT } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

interface OpenApiDocument {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
}

/** The committed contract (docs/openapi.json, written by `npm run openapi`) is the served one. */
describe('the OpenAPI contract', () => {
  let gateway: Gateway;
  let api: HttpClient;

  beforeAll(async () => {
    gateway = await createGateway(testConfig());
    api = new HttpClient(gateway.url);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('docs/openapi.json equals the document served at /v1/openapi.json (run `npm run openapi` after changing a route)', async () => {
    const served = await api.get<OpenApiDocument>('/v1/openapi.json');
    expect(served.status).toBe(200);
    const committed = JSON.parse(
      readFileSync(join(WORKSPACE_ROOT, 'docs', 'openapi.json'), 'utf8'),
    ) as unknown;
    expect(served.body).toEqual(committed);
  });

  it('every upload route declares its multipart body with the file parts', async () => {
    const { body } = await api.get<OpenApiDocument>('/v1/openapi.json');
    const uploads: [string, string[]][] = [
      ['/v1/annotate', ['file']],
      ['/v1/query-sets', ['file']],
      ['/v1/sources', ['file']],
      ['/v1/reranker-models/import', ['model.txt', 'spec.yaml', 'run.json']],
    ];
    for (const [path, files] of uploads) {
      const schema = body.paths[path]?.['post']?.requestBody?.content['multipart/form-data']?.schema as
        { required: string[]; properties: Record<string, { format?: string }> } | undefined;
      expect({ path, required: schema?.required }).toEqual({ path, required: files });
      for (const file of files) expect(schema?.properties[file]?.format).toBe('binary');
    }
  });

  it('every operation has a summary, a success response with its body, its problem responses and an example', async () => {
    const { body } = await api.get<FullDocument>('/v1/openapi.json');
    const gaps: string[] = [];
    for (const [path, item] of Object.entries(body.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const name = `${method.toUpperCase()} ${path}`;
        if (!operation.summary) gaps.push(`${name}: no summary`);
        const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
        if (success.length === 0) gaps.push(`${name}: no success response`);
        for (const [status, response] of success) {
          const media = Object.values(response.content ?? {})[0];
          if (status !== '204' && !media?.schema) gaps.push(`${name}: ${status} declares no body`);
          if (status !== '204' && media && !media.example && !hasExample(media.schema, body)) {
            gaps.push(`${name}: ${status} has no example`);
          }
        }
        for (const problem of ['401', '429']) {
          if (!operation.responses[problem]) gaps.push(`${name}: no ${problem}`);
        }
      }
    }
    expect(gaps).toEqual([]);
  });
});

interface FullDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        summary?: string;
        responses: Record<string, { content?: Record<string, { schema?: unknown; example?: unknown }> }>;
      }
    >
  >;
  components: { schemas: Record<string, unknown> };
}

/** An example on the schema, on one of its properties, or on the schema it refers to. */
function hasExample(schema: unknown, document: FullDocument, depth = 0): boolean {
  if (!schema || typeof schema !== 'object' || depth > 8) return false;
  const node = schema as Record<string, unknown>;
  if (node['example'] !== undefined) return true;
  const ref = node['$ref'];
  if (typeof ref === 'string') {
    return hasExample(document.components.schemas[ref.split('/').pop() ?? ''], document, depth + 1);
  }
  if (node['items']) return hasExample(node['items'], document, depth + 1);
  const properties = (node['properties'] ?? {}) as Record<string, unknown>;
  return Object.values(properties).some((p) => hasExample(p, document, depth + 1));
}
