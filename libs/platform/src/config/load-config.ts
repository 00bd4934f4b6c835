import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { parse as parseYaml } from 'yaml';
import { AppConfig, LogFormat } from './app-config';
import { writeProcessLine } from '../logging/process-line';
import { SettingDef, SETTINGS, SettingValues } from './settings';

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export interface LoadConfigOptions {
  /** Process environment; defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Project root holding `.env` and the default `config/system.yaml`. */
  rootDir?: string;
  /** Receives deprecation and fallback warnings. */
  onWarning?: (message: string) => void;
}

const RATE_LIMIT_RE = /^\d+\/(second|minute|hour|day)$/;
const TRUTHY = ['1', 'true', 'yes', 'on'];
const FALSY = ['0', 'false', 'no', 'off', ''];

type Source = { origin: string; value: unknown };
type Lookup = (name: string) => Source | undefined;

/** A coercion failure; a class rather than `{ error }` so a parsed intMap with a role named "error" is not mistaken for one. */
class Invalid {
  constructor(readonly error: string) {}
}

/**
 * Precedence, highest first: process environment (`SVC_*`, then deprecated unprefixed aliases),
 * `.env` at the project root, the YAML file (`SVC_CONFIG_FILE`, default `config/system.yaml`), defaults.
 */
export function loadConfig(options: LoadConfigOptions = {}): AppConfig {
  const env = options.env ?? process.env;
  const rootDir = options.rootDir ?? process.cwd();
  // Warnings wait until the log format is known, so that by default they are JSON lines like the rest.
  const warnings: string[] = [];
  const warn = (message: string): void => void warnings.push(message);
  const problems: string[] = [];

  const dotenvPath = join(rootDir, '.env');
  const dotenv: Record<string, string> = existsSync(dotenvPath) ? parseDotenv(readFileSync(dotenvPath)) : {};
  const fromProcess: Lookup = (name) =>
    env[name] !== undefined ? { origin: `environment variable ${name}`, value: env[name] } : undefined;
  const fromDotenv: Lookup = (name) =>
    dotenv[name] !== undefined ? { origin: `${name} in .env`, value: dotenv[name] } : undefined;
  const lookupEnv: Lookup = (name) => fromProcess(name) ?? fromDotenv(name);

  const yamlSetting = lookupEnv('SVC_CONFIG_FILE');
  const yamlPath = resolveAgainst(
    rootDir,
    typeof yamlSetting?.value === 'string' ? yamlSetting.value : 'config/system.yaml',
  );
  const yaml = readYaml(yamlPath, yamlSetting !== undefined, problems);

  const known = new Set(SETTINGS.map((s) => s.key));
  for (const key of Object.keys(yaml)) {
    if (!known.has(key) && key !== 'auth') problems.push(`${yamlPath}: unknown setting '${key}'`);
  }

  const values: Record<string, unknown> = {};
  for (const def of SETTINGS) {
    const source = resolveSource(def, [fromProcess, fromDotenv], yaml, yamlPath, warn);
    if (source === undefined) {
      if (def.required) problems.push(`${def.key} is required (set ${def.env})`);
      values[def.key] = def.default ?? null;
      continue;
    }
    const parsed = coerce(def, source.value);
    if (parsed instanceof Invalid) {
      problems.push(`${def.key} from ${source.origin}: ${parsed.error}`);
    } else if (parsed === null) {
      // An empty value means "not set": a required setting is still missing, an optional one keeps its default.
      if (def.required) problems.push(`${def.key} from ${source.origin}: must not be empty`);
      values[def.key] = def.default ?? null;
    } else {
      values[def.key] =
        def.type === 'path' && typeof parsed === 'string'
          ? resolveAgainst(rootDir, parsed)
          : def.type === 'pathList' && Array.isArray(parsed)
            ? parsed.map((item) => resolveAgainst(rootDir, String(item)))
            : parsed;
    }
  }

  // Merge first so a process variable replaces, rather than joins, a bad value of the same name in .env.
  const rateSettings = new Map<string, string>();
  for (const [name, raw] of [...Object.entries(dotenv), ...Object.entries(env)]) {
    if (name.startsWith('SVC_RATELIMIT_') && raw !== undefined) rateSettings.set(name, raw);
  }
  const rateLimits: Record<string, string> = {};
  for (const [name, raw] of rateSettings) {
    const value = raw.trim();
    if (!RATE_LIMIT_RE.test(value)) problems.push(`${name}: '${value}' is not a rate like 100/minute`);
    else rateLimits[name.slice('SVC_RATELIMIT_'.length).toLowerCase()] = value;
  }

  const authQuotas = readAuthQuotas(yaml['auth'], yamlPath, problems);
  if (values['smtp_enabled'] === true && values['smtp_host'] === null) {
    problems.push('smtp_enabled is on but smtp_host is not set (SVC_SMTP_HOST)');
  }

  const report =
    options.onWarning ??
    ((message: string) => writeProcessLine('config', 'warn', message, logFormatOf(values['log_format'])));
  for (const message of warnings) report(message);
  if (problems.length > 0) throw new ConfigError(problems);
  // Each value was checked against its row above, so the record is the table's typed values.
  return Object.freeze(buildConfig(values as SettingValues, rateLimits, authQuotas));
}

function logFormatOf(value: unknown): LogFormat {
  return value === 'text' ? 'text' : 'json';
}

/**
 * The log format for lines written before the configuration could be loaded (a start-up failure):
 * the environment's `SVC_LOG_FORMAT`, else JSON.
 */
export function startupLogFormat(env: Readonly<Record<string, string | undefined>> = process.env): LogFormat {
  return logFormatOf(env['SVC_LOG_FORMAT']?.trim().toLowerCase());
}

function resolveSource(
  def: SettingDef,
  layers: readonly Lookup[],
  yaml: Record<string, unknown>,
  yamlPath: string,
  warn: (message: string) => void,
): Source | undefined {
  for (const lookup of layers) {
    const direct = lookup(def.env);
    if (direct !== undefined) return direct;
    for (const alias of def.aliases ?? []) {
      const found = lookup(alias.env);
      if (found === undefined) continue;
      if (alias.deprecated) warn(`${alias.env} is deprecated; set ${def.env} instead`);
      return found;
    }
  }
  // A key written with no value (`metrics_port:`) parses as null and means "use the default".
  const fromYaml = yaml[def.key];
  if (fromYaml !== undefined && fromYaml !== null)
    return { origin: `${yamlPath} key ${def.key}`, value: fromYaml };
  return undefined;
}

function readYaml(path: string, explicit: boolean, problems: string[]): Record<string, unknown> {
  if (!existsSync(path)) {
    if (explicit) problems.push(`config file ${path} does not exist`);
    return {};
  }
  try {
    const doc: unknown = parseYaml(readFileSync(path, 'utf8'));
    if (doc === null || doc === undefined) return {};
    if (typeof doc !== 'object' || Array.isArray(doc)) {
      problems.push(`${path}: the top level must be a mapping`);
      return {};
    }
    return doc as Record<string, unknown>;
  } catch (error) {
    problems.push(`${path}: ${(error as Error).message.split('\n')[0]}`);
    return {};
  }
}

function resolveAgainst(rootDir: string, path: string): string {
  return isAbsolute(path) ? path : resolve(rootDir, path);
}

/** The parsed value, or an `Invalid` explaining why it could not be parsed. */
type Coerced = unknown;

function coerce(def: SettingDef, raw: unknown): Coerced {
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
function readAuthQuotas(raw: unknown, yamlPath: string, problems: string[]): AppConfig['authQuotas'] {
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

function buildConfig(
  v: SettingValues,
  rateLimits: Record<string, string>,
  authQuotas: AppConfig['authQuotas'],
): AppConfig {
  const trimSlash = (url: string): string => url.replace(/\/+$/, '');
  return {
    dbUrl: v.db_url,
    amqpUrl: v.amqp_url,
    artifactsDir: v.artifacts_dir,
    mode: v.mode,
    standaloneDataDir: v.standalone_data_dir,
    storageBackend: v.storage_backend,
    storageRoot: v.storage_root,
    objectStore: Object.freeze({
      endpoint: v.object_store_endpoint,
      accessKey: v.object_store_access_key,
      secretKey: v.object_store_secret_key,
      bucket: v.object_store_bucket,
      secure: v.object_store_secure,
      region: v.object_store_region,
    }),
    allowedOrigins: Object.freeze([...v.allowed_origins]),
    termEmbeddingPath: v.term_embedding_path,
    diamondBin: v.diamond_bin,
    poolMemoryFraction: v.pool_memory_fraction,
    benchmarkConfigPath: v.benchmark_config_path,
    pluginRoot: v.plugin_root,
    stackFilePath: v.stack_file,
    thesisPdfPath: v.thesis_pdf_path,
    codehostApiUrl: v.codehost_api_url,
    anonQuotaPerDay: v.anon_quota_per_day,
    userQuotaPerDay: Object.freeze({ ...v.user_quota_per_day }),
    smtp: Object.freeze({
      enabled: v.smtp_enabled || v.smtp_host !== null,
      host: v.smtp_host,
      port: v.smtp_port,
      user: v.smtp_user,
      password: v.smtp_password,
      fromAddr: v.smtp_from_addr,
      tlsVerify: v.smtp_tls_verify,
    }),
    authnRequired: v.authn_required,
    jwtSecret: v.jwt_secret,
    rateLimits: Object.freeze(rateLimits),
    bootstrapAdminEmail: v.bootstrap_admin_email,
    bootstrapAdminPassword: v.bootstrap_admin_password,
    codehostToken: v.codehost_token,
    otel: Object.freeze({
      enabled: v.otel_enabled,
      endpoint: v.otel_endpoint,
      serviceName: v.otel_service_name,
      sampleRatio: v.otel_sample_ratio,
      exportDelayMs: v.otel_export_delay_ms,
    }),
    pairFeatureWorkers: v.pair_feature_workers,
    alignCacheDir: v.align_cache_dir,
    host: v.host,
    port: v.port,
    metricsPort: v.metrics_port,
    logFormat: v.log_format,
    logLevel: v.log_level,
    queuePrefix: v.queue_prefix,
    jobs: Object.freeze({
      leaseSeconds: v.job_lease_seconds,
      heartbeatSeconds: v.job_heartbeat_seconds,
      reaperIntervalSeconds: v.reaper_interval_seconds,
      reaperMaxRequeues: v.reaper_max_requeues,
      publishTimeoutMs: v.publish_timeout_ms,
    }),
    dbPoolSize: v.db_pool_size,
    publicUrl: trimSlash(v.public_url),
    rpcTimeoutMs: v.rpc_timeout_ms,
    uniprotBaseUrl: trimSlash(v.uniprot_base_url),
    quickgoBaseUrl: trimSlash(v.quickgo_base_url),
    dataDir: v.data_dir,
    modelsDir: v.models_dir,
    authQuotas,
    security: Object.freeze({
      trustedProxies: Object.freeze([...v.trusted_proxies]),
      sourceAllowedRoots: Object.freeze([...v.source_allowed_roots]),
      sourceAllowedHosts: Object.freeze([...v.source_allowed_hosts]),
      sourceMaxLineBytes: v.source_max_line_bytes,
      sourceMaxBytes: v.source_max_bytes,
      sourceDeadlineSeconds: v.source_deadline_seconds,
      sourceMinBytesPerSecond: v.source_min_bytes_per_second,
      sourceRateWindowSeconds: v.source_rate_window_seconds,
      sourceUploadLimitBytes: v.source_upload_limit_bytes,
      jsonBodyLimitBytes: v.json_body_limit_bytes,
      jsonMaxDepth: v.json_max_depth,
      jobPayloadLimitBytes: v.job_payload_limit_bytes,
      fastaUploadLimitBytes: v.fasta_upload_limit_bytes,
      guestUploadLimitBytes: v.guest_upload_limit_bytes,
      fastaMaxSequenceLength: v.fasta_max_sequence_length,
      uploadConcurrency: v.upload_concurrency,
      querySetsPerOwner: v.query_sets_per_owner,
      guestResultRetentionDays: v.guest_result_retention_days,
      loginMaxFailures: v.login_max_failures,
      loginIpMaxFailures: v.login_ip_max_failures,
      loginThrottleSeconds: v.login_throttle_seconds,
      loginDelaySeconds: v.login_delay_seconds,
      loginDelayMaxSeconds: v.login_delay_max_seconds,
      signupAddressLimit: v.signup_address_limit,
      pingMaxSleepSeconds: v.ping_max_sleep_seconds,
      uniprotMaxRows: Object.freeze({
        researcher: v.uniprot_row_cap_researcher,
        operator: v.uniprot_row_cap_operator,
      }),
      uniprotMaxPages: Object.freeze({
        researcher: v.uniprot_page_cap_researcher,
        operator: v.uniprot_page_cap_operator,
      }),
    }),
  };
}
