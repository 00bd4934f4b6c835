import { AppConfig } from './app-config';
import { SettingDef } from './settings';

/** A rate setting's form: a count per second, minute, hour or day (`100/minute`). */
export const RATE_LIMIT_RE = /^\d+\/(second|minute|hour|day)$/;
const TRUTHY = ['1', 'true', 'yes', 'on'];
const FALSY = ['0', 'false', 'no', 'off', ''];

/** A coercion failure; a class rather than `{ error }` so a parsed intMap with a role named "error" is not mistaken for one. */
export class Invalid {
  constructor(readonly error: string) {}
}

/** The parsed value, or an `Invalid` explaining why it could not be parsed. */
export type Coerced = unknown;

export function coerce(def: SettingDef, raw: unknown): Coerced {
  switch (def.type) {
    case 'string':
    case 'path': {
      if (typeof raw !== 'string' && typeof raw !== 'number') return new Invalid('expected text');
      const text = String(raw).trim();
      return text === '' ? null : text;
    }
    case 'enum': {
      const text = typeof raw === 'string' ? raw.trim().toLowerCase() : raw;
      if (typeof text !== 'string' || !(def.values ?? []).includes(text)) {
        return new Invalid(`expected one of ${(def.values ?? []).join(', ')}, got '${String(raw)}'`);
      }
      return text;
    }
    case 'bool': {
      if (typeof raw === 'boolean') return raw;
      const text = String(raw).trim().toLowerCase();
      if (TRUTHY.includes(text)) return true;
      if (FALSY.includes(text)) return false;
      return new Invalid(`expected a boolean (1/true/yes/on or 0/false/no/off), got '${String(raw)}'`);
    }
    case 'int':
    case 'float': {
      const text = String(raw).trim();
      if (text === '' && def.default === null) return null;
      const number = Number(text);
      if (text === '' || !Number.isFinite(number))
        return new Invalid(`expected a number, got '${String(raw)}'`);
      if (def.type === 'int' && !Number.isInteger(number))
        return new Invalid(`expected an integer, got '${text}'`);
      if (def.min !== undefined && number < def.min) return new Invalid(`must be at least ${def.min}`);
      if (def.max !== undefined && number > def.max) return new Invalid(`must be at most ${def.max}`);
      return number;
    }
    case 'list': {
      if (Array.isArray(raw)) return raw.map((item) => String(item).trim()).filter((item) => item !== '');
      const text = String(raw).trim();
      if (text.startsWith('[')) {
        try {
          const parsed: unknown = JSON.parse(text);
          if (Array.isArray(parsed)) return parsed.map((item) => String(item));
        } catch {
          return new Invalid('expected a JSON list or comma-separated values');
        }
      }
      return text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
    }
    case 'pathList': {
      // PATH-style (`:`) or comma-separated; each entry resolved against the project root.
      const items = Array.isArray(raw) ? raw.map(String) : String(raw).split(/[,:]/);
      return items.map((item) => item.trim()).filter((item) => item !== '');
    }
    case 'intMap':
      return coerceIntMap(raw);
  }
}

function coerceIntMap(raw: unknown): Coerced {
  let entries: [string, unknown][];
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    entries = Object.entries(raw);
  } else if (typeof raw === 'string') {
    const text = raw.trim();
    if (text === '') return {};
    if (text.startsWith('{')) {
      try {
        entries = Object.entries(JSON.parse(text) as Record<string, unknown>);
      } catch {
        return new Invalid('expected a JSON object or key=value pairs');
      }
    } else {
      entries = text.split(',').map((pair) => {
        const [k = '', v = ''] = pair.split('=');
        return [k.trim(), v.trim()];
      });
    }
  } else {
    return new Invalid('expected a mapping of role to integer');
  }
  const out: Record<string, number> = {};
  for (const [key, value] of entries) {
    // Number('') and Number(null) are 0, which would silently turn `researcher=` into a zero quota.
    const number =
      typeof value === 'number'
        ? value
        : typeof value === 'string' && value.trim() !== ''
          ? Number(value)
          : Number.NaN;
    if (key === '' || !Number.isInteger(number) || number < 0)
      return new Invalid(`bad entry '${key}=${String(value)}'`);
    out[key] = number;
  }
  return out;
}

const QUOTA_ROLES = ['guest', 'researcher', 'operator', 'admin'];

/**
 * `auth.quotas` in the YAML file: per role, per resource, an integer daily quota, `null` for
 * unlimited, or a rate such as `10/minute`.
 */
export function readAuthQuotas(raw: unknown, yamlPath: string, problems: string[]): AppConfig['authQuotas'] {
  if (raw === undefined || raw === null) return {};
  const quotas =
    typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>)['quotas'] : undefined;
  if (quotas === undefined || quotas === null) return {};
  if (typeof quotas !== 'object' || Array.isArray(quotas)) {
    problems.push(`${yamlPath}: auth.quotas must be a mapping of role to resource limits`);
    return {};
  }
  const out: Record<string, Record<string, number | string | null>> = {};
  for (const [role, limits] of Object.entries(quotas as Record<string, unknown>)) {
    if (!QUOTA_ROLES.includes(role)) {
      problems.push(`${yamlPath}: auth.quotas.${role}: unknown role (expected ${QUOTA_ROLES.join(', ')})`);
      continue;
    }
    if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) {
      problems.push(`${yamlPath}: auth.quotas.${role} must be a mapping of resource to limit`);
      continue;
    }
    const entries: Record<string, number | string | null> = {};
    for (const [resource, value] of Object.entries(limits as Record<string, unknown>)) {
      const ok =
        value === null ||
        (typeof value === 'number' && Number.isInteger(value) && value >= 0) ||
        (typeof value === 'string' && RATE_LIMIT_RE.test(value.trim()));
      if (!ok)
        problems.push(
          `${yamlPath}: auth.quotas.${role}.${resource}: expected an integer, null or a rate like 10/minute`,
        );
      else entries[resource] = typeof value === 'string' ? value.trim() : value;
    }
    out[role] = Object.freeze(entries);
  }
  return Object.freeze(out);
}
