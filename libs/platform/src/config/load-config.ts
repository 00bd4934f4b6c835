import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { parse as parseYaml } from 'yaml';
import { AppConfig, LogFormat } from './app-config';
import { writeProcessLine } from '../logging/process-line';
import { SettingDef, SETTINGS, SettingValues } from './settings';
import { coerce, Invalid, RATE_LIMIT_RE, readAuthQuotas } from './coerce-setting';

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

type Source = { origin: string; value: unknown };
type Lookup = (name: string) => Source | undefined;

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
    diamondBlockSize: v.diamond_block_size,
    diamondIndexChunks: v.diamond_index_chunks,
    searchAheadQueries: v.search_ahead_queries,
    poolMemoryFraction: v.pool_memory_fraction,
    priorRows: v.prior_rows,
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
