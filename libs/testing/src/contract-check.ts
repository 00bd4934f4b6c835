import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { WORKSPACE_ROOT } from './test-environment';

interface MediaObject {
  schema?: unknown;
}
interface OperationObject {
  responses: Record<string, { content?: Record<string, MediaObject> }>;
}
interface Document {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, unknown> };
}

interface Route {
  template: string;
  pattern: RegExp;
  literalSegments: number;
  item: Record<string, OperationObject>;
}

/**
 * Checks answers against the committed contract (docs/openapi.json): every JSON body the HTTP tests
 * receive must match the schema the contract declares for its route and status, with no property the
 * contract does not name. Generated clients rely on exactly this. Off with SVC_CONTRACT_CHECK=0.
 */
export class ContractCheck {
  private readonly ajv: Ajv;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: Document) {
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    const schemas = closeObjects(structuredClone(document.components.schemas)) as Record<string, unknown>;
    this.ajv.addSchema({ $id: 'contract', components: { schemas } });
    this.routes = Object.entries(document.paths)
      .map(([template, item]) => ({
        template,
        item,
        pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        literalSegments: template.split('/').filter((s) => s && !s.startsWith('{')).length,
      }))
      // The most literal template wins (`/v1/proteins/stats` before `/v1/proteins/{accession}`).
      .sort((a, b) => b.literalSegments - a.literalSegments);
  }

  static fromCommitted(): ContractCheck {
    return new ContractCheck(
      JSON.parse(readFileSync(join(WORKSPACE_ROOT, 'docs', 'openapi.json'), 'utf8')) as Document,
    );
  }

  /** Returns what is wrong with an answer, or null when it matches (or the contract says nothing). */
  violation(method: string, url: string, status: number, contentType: string, body: unknown): string | null {
    const path = new URL(url, 'http://x').pathname;
    const route = this.routes.find((r) => r.pattern.test(path) && r.item[method.toLowerCase()]);
    if (!route) return null;
    const operation = route.item[method.toLowerCase()];
    if (!operation) return null;
    const response = operation.responses[String(status)];
    if (!response) {
      // 5xx are the server's own failures, and 405/400 come from the HTTP layer, not the route.
      if (status >= 500 || status === 405 || status === 400) return null;
      return `${method} ${route.template} answered ${status}, which the contract does not list`;
    }
    if (!contentType.includes('json')) return null;
    const media = response.content?.['application/json'] ?? response.content?.['application/problem+json'];
    if (!media?.schema) return null;
    const key = `${method} ${route.template} ${status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(rebase(closeObjects(structuredClone(media.schema))) as object);
      this.validators.set(key, validate);
    }
    if (validate(body)) return null;
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
      )
      .join('; ');
    return `${key}: the body does not match the contract: ${errors}`;
  }
}

/** `#/components/schemas/X` → `contract#/components/schemas/X`. */
function rebase(schema: unknown): unknown {
  return JSON.parse(
    JSON.stringify(schema).replace(/"#\/components\/schemas\//g, '"contract#/components/schemas/'),
  ) as unknown;
}

/** Object schemas that list their properties and say nothing else admit no other property. */
function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) {
    for (const item of schema) closeObjects(item);
  } else if (schema && typeof schema === 'object') {
    const node = schema as Record<string, unknown>;
    if (node['properties'] && node['additionalProperties'] === undefined)
      node['additionalProperties'] = false;
    for (const value of Object.values(node)) closeObjects(value);
  }
  return schema;
}

let shared: ContractCheck | null | undefined;

/** The committed contract's checker, or null when SVC_CONTRACT_CHECK=0. */
export function contractCheck(): ContractCheck | null {
  if (shared === undefined)
    shared = process.env['SVC_CONTRACT_CHECK'] === '0' ? null : ContractCheck.fromCommitted();
  return shared;
}
