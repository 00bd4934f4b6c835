import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountRole, createUser, SecurityStack, startSecurityStack } from './security-stack';

/**
 * Rule 10, the generated part: every operation of /openapi.json gets its hostile variants over HTTP,
 * against the real stack with accounts on. A request fails the sweep when the answer is a 5xx (or no
 * answer), or a 2xx to a caller below the operation's role floor (`x-role-floor`).
 *
 * For each operation the sweep first learns a base request that passes validation (trying plausible
 * values for the fields a 422 names), so that each hostile field mutation is the only thing wrong
 * with its request and reaches the service and the database, not just the validator.
 */

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  minLength?: number;
  minimum?: number;
  maximum?: number;
  allOf?: Schema[];
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  'x-role-floor'?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

type Caller = 'anonymous' | AccountRole;

const VARIANTS = [
  'base',
  'no-credential',
  'below-floor',
  'path-nul',
  'path-upper-uuid',
  'path-not-uuid',
  'path-oversized',
  'path-bad-encoding',
  'query-nul',
  'query-huge-number',
  'query-negative',
  'query-wrong-type',
  'query-out-of-range',
  'query-repeated',
  'query-oversized',
  'query-bad-date',
  'header-oversized-credential',
  'body-unknown-key',
  'body-deep-json',
  'body-not-object',
  'body-proto-key',
  'body-field-nul',
  'body-field-nested-nul',
  'body-field-lone-surrogate',
  'body-field-wrong-type',
  'body-field-huge-number',
  'body-field-out-of-range',
  'body-field-oversized',
  'body-field-null',
  'multipart-nul-field',
  'multipart-long-fasta-header',
  'multipart-oversized-field',
  'multipart-no-boundary',
  'multipart-truncated',
  'multipart-extra-part',
  'multipart-oversized-part',
] as const;
type Variant = (typeof VARIANTS)[number];

interface Probe {
  route: string;
  variant: Variant;
  caller: Caller;
  method: string;
  url: string;
  body?: string | FormData;
  headers?: Record<string, string>;
  /** The caller is below the floor: any 2xx is a violation. */
  belowFloor: boolean;
}

interface Outcome {
  probe: Probe;
  status: number;
  text: string;
}

const RANK: Record<Caller, number> = { anonymous: 0, researcher: 1, operator: 2, admin: 3 };
const FLOOR_RANK: Record<string, number> = { guest: 0, researcher: 1, operator: 2, admin: 3 };
const CALLER_AT: Caller[] = ['anonymous', 'researcher', 'operator', 'admin'];
const BODY_METHODS = new Set(['post', 'put', 'patch']);
const HUGE_NUMBER = '99999999999999999999';
const OVERSIZED = 200_000;
/** A file part past a guest's upload limit (1 MiB) and the longest sequence. */
const OVERSIZED_PART = 2 * 1024 * 1024;
const SWEEP_BOUNDARY = 'svcsweepboundary';
const DEEP_LEVELS = 5000;
const CONCURRENCY = 4;
const LEARNING_ROUNDS = 12;

/**
 * Operations not sent as a caller at or above their floor, with the reason. Their below-floor
 * variants (no credential, lower roles) are still sent.
 */
const EXCLUDED_AT_FLOOR: Record<string, string> = {
  'POST /v1/admin/reset-db':
    'empties the database, the sweep accounts included; it takes no input, and has a test of its own',
};

/** Bodies the learner would not find by itself. */
const BASE_BODIES: Record<string, Record<string, unknown>> = {
  'POST /v1/jobs': { operation: 'ping', queue_name: 'svc.ping', payload: { message: 'sweep' } },
  'POST /v1/embeddings/configs': { model_name: 'kmer-v1', model_backend: 'kmer', description: 'sweep' },
  'POST /v1/scoring/configs': { name: 'sweep', weights: { embedding_similarity: 1 } },
  'POST /v1/reranker-models/import-by-reference': {
    artifact_uri: 'https://sweep.invalid/model.txt',
    spec_yaml: 'model: sweep',
    run: { feature_schema_sha: 'sweep' },
  },
};

/** Path parameters that are not UUIDs. */
const PATH_VALUES: Record<string, string> = { accession: 'P12345', idOrName: 'sweep-dataset' };

/** Values to try, in order, for a field that a 422 names: the schema's type first, then any other. */
function candidatesFor(name: string, schema: Schema): unknown[] {
  if (schema.enum !== undefined) return schema.enum;
  if (schema.format === 'uuid') return [randomUUID()];
  const type = schema.type;
  const strings = [
    /email/.test(name) ? `sweep-${randomUUID().slice(0, 8)}@svc.test` : 'sweep',
    'sweep-long-enough-value',
    'a'.repeat(64),
    'GO:0008150',
    'P12345',
    new Date().toISOString(),
    `https://sweep.invalid/${name}.txt`,
    'goa',
  ];
  const numbers = [1, 5, 0, 0.5];
  const arrays = [[], [2020, 2021], ['sweep']];
  const objects = [{}];
  const booleans = [false];
  if (type === 'number' || type === 'integer') return [...numbers, ...strings];
  if (type === 'array') return [...arrays, ...objects];
  if (type === 'object') return [...objects, ...strings, ...numbers, ...arrays];
  if (type === 'boolean') return booleans;
  return [...strings, ...numbers, ...arrays, ...objects];
}

function resolve(schema: Schema | undefined, doc: OpenApi): Schema {
  let current = schema ?? {};
  for (let hops = 0; hops < 10; hops += 1) {
    if (current.$ref !== undefined) {
      current = doc.components?.schemas?.[current.$ref.replace('#/components/schemas/', '')] ?? {};
    } else if (current.allOf?.length === 1) {
      current = current.allOf[0]!;
    } else break;
  }
  return current;
}

function firstValue(name: string, schema: Schema, doc: OpenApi): unknown {
  const s = resolve(schema, doc);
  if (s.format === 'date-time') return new Date().toISOString();
  if (s.type === 'string' && s.minLength !== undefined) return 'sweep'.padEnd(s.minLength, 'x');
  if ((s.type === 'number' || s.type === 'integer') && s.minimum !== undefined) return s.minimum;
  return candidatesFor(name, s)[0];
}

function wrongTypeOf(schema: Schema, doc: OpenApi): unknown {
  const type = resolve(schema, doc).type;
  if (type === 'string') return 12345;
  if (type === 'number' || type === 'integer' || type === 'boolean') return 'not-a-number';
  if (type === 'array') return { not: 'an array' };
  return ['not', 'an', 'object'];
}

/** Just outside the range a numeric schema documents: one below its minimum, one above its maximum. */
function outOfRange(schema: Schema, doc: OpenApi): number[] {
  const s = resolve(schema, doc);
  if (s.type !== 'number' && s.type !== 'integer') return [];
  return [
    ...(s.minimum === undefined ? [] : [s.minimum - 1]),
    ...(s.maximum === undefined ? [] : [s.maximum + 1]),
  ];
}

function nestedJson(levels: number): string {
  return `${'{"a":'.repeat(levels)}{}${'}'.repeat(levels)}`;
}

function queryString(entries: [string, string][]): string {
  return entries.length === 0 ? '' : `?${entries.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

function uploadForm(fields: Record<string, string>, fasta: string): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  data.set('file', new Blob([fasta], { type: 'text/plain' }), 'sweep.fasta');
  return data;
}

/** One operation: its floor, its learned base request, and every hostile variant of it. */
class OperationSweep {
  readonly route: string;
  readonly floor: number;
  readonly caller: Caller;
  private readonly pathValues: Record<string, string>;
  private readonly query: Record<string, unknown> = {};
  private readonly body: Record<string, unknown> | undefined;
  private readonly jsonSchema: Schema | undefined;

  constructor(
    private readonly path: string,
    private readonly method: string,
    private readonly operation: Operation,
    private readonly doc: OpenApi,
  ) {
    this.route = `${method.toUpperCase()} ${path}`;
    this.floor = FLOOR_RANK[operation['x-role-floor'] ?? 'admin'] ?? 3;
    this.caller = CALLER_AT[this.floor]!;
    this.pathValues = Object.fromEntries(
      this.params('path').map((p) => [p.name, PATH_VALUES[p.name] ?? randomUUID()]),
    );
    for (const p of this.params('query').filter((q) => q.required === true))
      this.query[p.name] = firstValue(p.name, p.schema ?? {}, doc);
    this.jsonSchema = operation.requestBody?.content?.['application/json']?.schema;
    if (BODY_METHODS.has(method)) {
      this.body = { ...(BASE_BODIES[this.route] ?? {}) };
      if (BASE_BODIES[this.route] === undefined)
        for (const name of resolve(this.jsonSchema, doc).required ?? [])
          this.body[name] = firstValue(name, this.properties()[name] ?? {}, doc);
    }
  }

  get excluded(): boolean {
    return EXCLUDED_AT_FLOOR[this.route] !== undefined;
  }

  /**
   * Tries values for the fields and parameters each 422 names until the base request passes
   * validation (or the rounds run out; the variants are sent either way).
   */
  async learnBase(send: (probe: Probe) => Promise<Outcome & { full: string }>): Promise<void> {
    const tried = new Map<string, number>();
    for (let round = 0; round < LEARNING_ROUNDS; round += 1) {
      const outcome = await send(this.probe('base', this.caller, this.url()));
      if (outcome.status !== 422) return;
      let errors: { path?: string }[] = [];
      try {
        errors = (JSON.parse(outcome.full) as { errors?: { path?: string }[] }).errors ?? [];
      } catch {
        return;
      }
      const fields = [...new Set(errors.map((e) => (e.path ?? '').split(/[.[]/)[0] ?? ''))];
      let changed = false;
      for (const field of fields) {
        const inBody = this.body !== undefined && field in this.properties();
        const inQuery = this.params('query').some((p) => p.name === field);
        if (!inBody && !inQuery) continue;
        const schema = inBody
          ? this.properties()[field]!
          : (this.params('query').find((p) => p.name === field)!.schema ?? {});
        const candidates = candidatesFor(field, resolve(schema, this.doc));
        const next = tried.get(field) ?? 0;
        tried.set(field, next + 1);
        const target = inBody && this.body !== undefined ? this.body : this.query;
        if (next < candidates.length) {
          target[field] = candidates[next];
          changed = true;
        } else if (!this.isRequired(field, inBody)) {
          delete target[field];
          changed = true;
        }
      }
      if (!changed) return;
    }
  }

  /** Every request of this operation after the base. */
  variants(): Probe[] {
    const probes: Probe[] = [this.probe('no-credential', 'anonymous', this.url())];
    for (const caller of ['researcher', 'operator'] as const)
      if (RANK[caller] < this.floor) probes.push(this.probe('below-floor', caller, this.url()));
    if (this.excluded) return probes;
    const hostile = (variant: Variant, url: string, extra: Partial<Probe> = {}): void => {
      probes.push(this.probe(variant, this.caller, url, extra));
    };
    for (const name of Object.keys(this.pathValues)) {
      const value = this.pathValues[name]!;
      const withPath = (v: string): string => this.url({ [name]: v });
      hostile('path-nul', withPath(`${value}%00`));
      hostile('path-upper-uuid', withPath(randomUUID().toUpperCase()));
      hostile('path-not-uuid', withPath('not-a-uuid'));
      hostile('path-oversized', withPath('x'.repeat(4000)));
      hostile('path-bad-encoding', withPath(`${value}%E0%A4%A`));
    }
    const withQuery = (name: string, ...values: string[]): string => this.url({}, { name, values });
    hostile('query-nul', withQuery('sweep', 'a%00b'));
    for (const p of this.params('query')) {
      const type = resolve(p.schema, this.doc).type;
      hostile('query-nul', withQuery(p.name, 'a%00b'));
      hostile('query-repeated', withQuery(p.name, 'a', 'b'));
      hostile('query-oversized', withQuery(p.name, 'x'.repeat(4000)));
      if (type === 'number' || type === 'integer') {
        hostile('query-huge-number', withQuery(p.name, HUGE_NUMBER));
        hostile('query-negative', withQuery(p.name, `-${HUGE_NUMBER}`));
        hostile('query-wrong-type', withQuery(p.name, 'abc'));
        for (const value of outOfRange(p.schema ?? {}, this.doc))
          hostile('query-out-of-range', withQuery(p.name, String(value)));
      } else if (type === 'boolean') {
        hostile('query-wrong-type', withQuery(p.name, 'maybe'));
      }
      if (p.name === 'after' || resolve(p.schema, this.doc).format === 'date-time') {
        // ISO 8601 forms that PostgreSQL's timestamptz refuses: year 0, week dates, 30 February, year 275760.
        for (const date of ['0000-01-01', '2024-W01', '2024-02-30', '275760-09-13T00:00:00Z'])
          hostile('query-bad-date', withQuery(p.name, date));
      }
    }
    hostile('header-oversized-credential', this.url(), { headers: { 'x-api-key': 'k'.repeat(8000) } });
    if (this.body === undefined) return probes;

    const base = this.body;
    const withBody = (variant: Variant, text: string): void => hostile(variant, this.url(), { body: text });
    withBody('body-unknown-key', JSON.stringify({ ...base, sweep_unknown_key: 1 }));
    withBody('body-deep-json', `{"sweep":${nestedJson(DEEP_LEVELS)}}`);
    withBody('body-not-object', '[1,2,3]');
    withBody('body-proto-key', '{"__proto__":{"role":"admin"},"constructor":{"prototype":{"x":1}}}');
    // A body the document does not describe: mutate the keys of the base body, and one more.
    const properties: Record<string, Schema> =
      Object.keys(this.properties()).length > 0
        ? this.properties()
        : Object.fromEntries([...Object.keys(base), 'sweep'].map((key) => [key, { type: 'string' }]));
    for (const [name, schema] of Object.entries(properties)) {
      const type = resolve(schema, this.doc).type;
      const mutate = (variant: Variant, value: unknown): void =>
        withBody(variant, JSON.stringify({ ...base, [name]: value }));
      mutate('body-field-nul', 'a\u0000b');
      mutate('body-field-wrong-type', wrongTypeOf(schema, this.doc));
      mutate('body-field-oversized', 'x'.repeat(OVERSIZED));
      mutate('body-field-null', null);
      // JSON.stringify writes an unpaired surrogate as the escape \ud800, which jsonb refuses.
      mutate('body-field-lone-surrogate', type === 'object' ? { k: 'a\ud800b' } : 'a\ud800b');
      for (const value of outOfRange(schema, this.doc)) mutate('body-field-out-of-range', value);
      if (type === 'object')
        mutate('body-field-nested-nul', { 'k\u0000': 'a\u0000b', nested: { v: 'a\u0000b' } });
      if (type === 'number' || type === 'integer' || type === 'array') {
        // The digits must reach the server as written; JSON.stringify would send 1e+20.
        const huge = type === 'array' ? `[${HUGE_NUMBER}]` : HUGE_NUMBER;
        withBody(
          'body-field-huge-number',
          JSON.stringify({ ...base, [name]: 0 }).replace(`"${name}":0`, `"${name}":${huge}`),
        );
      }
    }
    if (this.jsonSchema === undefined && this.method === 'post') {
      // Upload routes read multipart/form-data, which the OpenAPI document does not describe.
      const fasta = '>SWEEP1 sweep\nMKTAYIAKQR\n';
      hostile('multipart-nul-field', this.url(), {
        body: uploadForm({ name: 'a\u0000b', description: 'a\u0000b' }, fasta),
      });
      hostile('multipart-long-fasta-header', this.url(), {
        body: uploadForm({ name: 'sweep' }, `>${'A'.repeat(1024 * 1024)}\nMKTAYIAKQR\n`),
      });
      hostile('multipart-oversized-field', this.url(), {
        body: uploadForm({ name: 'x'.repeat(OVERSIZED), description: 'x'.repeat(OVERSIZED) }, fasta),
      });
      const framed = `--${SWEEP_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="s.fasta"\r\n\r\n${fasta}\r\n--${SWEEP_BOUNDARY}--\r\n`;
      hostile('multipart-no-boundary', this.url(), {
        body: framed,
        headers: { 'content-type': 'multipart/form-data' },
      });
      hostile('multipart-truncated', this.url(), {
        body: framed.slice(0, framed.length - 30),
        headers: { 'content-type': `multipart/form-data; boundary=${SWEEP_BOUNDARY}` },
      });
      const extra = uploadForm({ name: 'sweep' }, fasta);
      extra.set('extra', new Blob(['x'.repeat(1000)]), 'extra.bin');
      hostile('multipart-extra-part', this.url(), { body: extra });
      hostile('multipart-oversized-part', this.url(), {
        body: uploadForm({ name: 'sweep' }, `>SWEEP2 big\n${'ACDEFGHIKL'.repeat(OVERSIZED_PART / 10)}\n`),
      });
    }
    return probes;
  }

  private isRequired(field: string, inBody: boolean): boolean {
    return inBody
      ? (resolve(this.jsonSchema, this.doc).required ?? []).includes(field)
      : this.params('query').some((p) => p.name === field && p.required === true);
  }

  private params(where: 'path' | 'query'): Parameter[] {
    return (this.operation.parameters ?? []).filter((p) => p.in === where);
  }

  private properties(): Record<string, Schema> {
    return resolve(this.jsonSchema, this.doc).properties ?? {};
  }

  private url(path: Record<string, string> = {}, query?: { name: string; values: string[] }): string {
    const values = { ...this.pathValues, ...path };
    const entries: [string, string][] = Object.entries(this.query)
      .filter(([name]) => name !== query?.name)
      .map(([name, value]) => [name, encodeURIComponent(String(value))]);
    for (const value of query?.values ?? []) entries.push([query!.name, value]);
    return `${this.path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? randomUUID())}${queryString(entries)}`;
  }

  private probe(variant: Variant, caller: Caller, url: string, extra: Partial<Probe> = {}): Probe {
    return {
      route: this.route,
      variant,
      caller,
      method: this.method.toUpperCase(),
      url,
      belowFloor: RANK[caller] < this.floor,
      ...(this.body !== undefined ? { body: JSON.stringify(this.body) } : {}),
      ...extra,
    };
  }
}

describe('rule 10: the OpenAPI sweep', () => {
  let stack: SecurityStack;
  let doc: OpenApi;
  const keys: Partial<Record<Caller, string>> = {};
  const outcomes: Outcome[] = [];
  let routeCount = 0;

  const send = async (probe: Probe): Promise<Outcome & { full: string }> => {
    const headers: Record<string, string> = {};
    const key = keys[probe.caller];
    if (key !== undefined) headers['x-api-key'] = key;
    if (typeof probe.body === 'string') headers['content-type'] = 'application/json';
    Object.assign(headers, probe.headers);
    let outcome: Outcome & { full: string };
    try {
      const response = await fetch(`${stack.api.baseUrl}${probe.url}`, {
        method: probe.method,
        headers,
        ...(probe.body !== undefined ? { body: probe.body } : {}),
        signal: AbortSignal.timeout(30_000),
      });
      const full = await response.text();
      outcome = { probe, status: response.status, text: full.slice(0, 300), full };
    } catch (error) {
      // A dropped connection or a hang is as bad as a 500.
      outcome = { probe, status: 599, text: `no answer: ${(error as Error).message}`, full: '' };
    }
    outcomes.push({ probe, status: outcome.status, text: outcome.text });
    return outcome;
  };

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-sweep-'));
    const config = join(dir, 'system.yaml');
    // Thousands of requests from one address and three keys: limits that answered 429 early would
    // hide what lies behind them.
    writeFileSync(
      config,
      'auth:\n  quotas:\n    researcher:\n      jobs: 1000000\n      annotate_sequences: 1000000\n',
    );
    const generous = '1000000/minute';
    stack = await startSecurityStack('openapi_sweep', {
      workers: ['ingestion-worker'],
      env: {
        SVC_CONFIG_FILE: config,
        SVC_RATELIMIT_POST_JOBS: generous,
        SVC_RATELIMIT_POST_DATASETS: generous,
        SVC_RATELIMIT_API_KEY_MINT: generous,
        SVC_RATELIMIT_API_KEY_LOGIN: generous,
        SVC_RATELIMIT_EMAIL_REQUEST: generous,
        SVC_RATELIMIT_CREDENTIAL_FAILURE: generous,
        SVC_LOGIN_MAX_FAILURES: '1000000',
        SVC_LOGIN_IP_MAX_FAILURES: '1000000',
      },
    });
    // API keys rather than session cookies: the sweep's own POST /auth/logout must not sign it out.
    for (const role of ['researcher', 'operator', 'admin'] as const) {
      const user = await createUser(stack, role);
      const minted = await stack.api.post<{ key: string }>(
        '/v1/auth/api-keys',
        { name: `sweep ${role}`, role },
        user.headers,
      );
      if (minted.status !== 201) throw new Error(`minting a ${role} key failed: ${minted.text}`);
      keys[role] = minted.body.key;
    }
    doc = (await stack.api.get<OpenApi>('/openapi.json')).body;
  }, 240_000);

  afterAll(async () => {
    const fivexx = outcomes.filter((o) => o.status >= 500).length;
    const violations = outcomes.filter((o) => o.probe.belowFloor && o.status >= 200 && o.status < 300).length;
    for (const [route, reason] of Object.entries(EXCLUDED_AT_FLOOR))
      process.stdout.write(`sweep exclusion: ${route} at or above its floor: ${reason}\n`);
    process.stdout.write(
      `sweep: ${routeCount} routes x ${VARIANTS.length} variants = ${outcomes.length} requests, ${fivexx} 5xx, ${violations} floor violations\n`,
    );
    await stack?.close();
  });

  it('rule 10: every operation in /openapi.json declares its role floor (x-role-floor)', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        route: `${method.toUpperCase()} ${path}`,
        floor: op['x-role-floor'],
      })),
    );
    expect(operations.length).toBeGreaterThan(100);
    expect(operations.filter((o) => o.floor === undefined || FLOOR_RANK[o.floor] === undefined)).toEqual([]);
  });

  it('rule 10: every route answers its hostile variants without a 5xx, and never 2xx below its floor', async () => {
    const sweeps = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => new OperationSweep(path, method, op, doc)),
    );
    routeCount = sweeps.length;
    const runPool = async <T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> => {
      const queue = [...items];
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
        }),
      );
    };
    await runPool(
      sweeps.filter((s) => !s.excluded),
      (s) => s.learnBase(send),
    );
    await runPool(
      sweeps.flatMap((s) => s.variants()),
      (probe) => send(probe),
    );
    const explain = (o: Outcome): string =>
      `${o.probe.route} [${o.probe.variant} as ${o.probe.caller}] ${o.probe.url.slice(0, 160)} -> ${o.status} ${o.text}`;
    expect(outcomes.filter((o) => o.status >= 500).map(explain)).toEqual([]);
    expect(
      outcomes.filter((o) => o.probe.belowFloor && o.status >= 200 && o.status < 300).map(explain),
    ).toEqual([]);
    // The document's bounds are the ones enforced: a value just outside one is refused with a 422.
    const outOfRangeVariants: Variant[] = ['query-out-of-range', 'body-field-out-of-range'];
    expect(
      outcomes.filter((o) => outOfRangeVariants.includes(o.probe.variant) && o.status !== 422).map(explain),
    ).toEqual([]);
    // Every variant kind reached some route, so the generator cannot quietly stop producing one.
    expect(VARIANTS.filter((v) => !outcomes.some((o) => o.probe.variant === v))).toEqual([]);
  });
});
