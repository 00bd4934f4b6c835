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
});
