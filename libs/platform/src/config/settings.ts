/**
 * Every runtime setting: its key in the YAML file and in code, its environment variable, its type and
 * default. The loader validates all of them at once and lists every problem.
 */
export type SettingType =
  'string' | 'path' | 'int' | 'float' | 'bool' | 'list' | 'pathList' | 'intMap' | 'enum';

export interface SettingDef {
  readonly key: string;
  readonly env: string;
  readonly type: SettingType;
  readonly required?: boolean;
  readonly default?: unknown;
  readonly values?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** Other environment variables accepted for the same setting, lowest precedence first. */
  readonly aliases?: readonly { env: string; deprecated: boolean }[];
}

const DEV_ORIGINS = [
  'http://localhost:3000',
  'http://127.0.0.1:3000',
  'http://localhost:8000',
  'http://127.0.0.1:8000',
];

const SETTING_TABLE = [
  // Specification, "Runtime configuration", first table.
  {
    key: 'db_url',
    env: 'SVC_DB_URL',
    type: 'string',
    required: true,
    aliases: [{ env: 'DATABASE_URL', deprecated: true }],
  },
  {
    key: 'amqp_url',
    env: 'SVC_AMQP_URL',
    type: 'string',
    required: true,
    aliases: [{ env: 'AMQP_URL', deprecated: true }],
  },
  { key: 'artifacts_dir', env: 'SVC_ARTIFACTS_DIR', type: 'path', required: true },
  { key: 'mode', env: 'SVC_MODE', type: 'enum', values: ['services', 'standalone'], default: 'services' },
  { key: 'standalone_data_dir', env: 'SVC_STANDALONE_DATA_DIR', type: 'path', default: 'var/standalone' },
  {
    key: 'storage_backend',
    env: 'SVC_STORAGE_BACKEND',
    type: 'enum',
    values: ['local', 'minio', 's3'],
    default: 'local',
  },
  { key: 'storage_root', env: 'SVC_STORAGE_ROOT', type: 'path', default: null },
  { key: 'object_store_endpoint', env: 'SVC_OBJECT_STORE_ENDPOINT', type: 'string', default: null },
  { key: 'object_store_access_key', env: 'SVC_OBJECT_STORE_ACCESS_KEY', type: 'string', default: null },
  { key: 'object_store_secret_key', env: 'SVC_OBJECT_STORE_SECRET_KEY', type: 'string', default: null },
  { key: 'object_store_bucket', env: 'SVC_OBJECT_STORE_BUCKET', type: 'string', default: 'svc' },
  { key: 'object_store_secure', env: 'SVC_OBJECT_STORE_SECURE', type: 'bool', default: false },
  { key: 'object_store_region', env: 'SVC_OBJECT_STORE_REGION', type: 'string', default: 'us-east-1' },
  { key: 'allowed_origins', env: 'SVC_ALLOWED_ORIGINS', type: 'list', default: DEV_ORIGINS },
  { key: 'term_embedding_path', env: 'SVC_TERM_EMBEDDING_PATH', type: 'path', default: null },
  { key: 'plugin_root', env: 'SVC_PLUGIN_ROOT', type: 'path', default: null },
  { key: 'stack_file', env: 'SVC_STACK_FILE', type: 'path', default: 'config/stack.yaml' },
  { key: 'thesis_pdf_path', env: 'SVC_THESIS_PDF', type: 'path', default: null },
  { key: 'codehost_api_url', env: 'SVC_CODEHOST_API_URL', type: 'string', default: 'https://api.github.com' },
  { key: 'benchmark_config_path', env: 'SVC_BENCHMARK_CONFIG', type: 'path', default: null },
  { key: 'anon_quota_per_day', env: 'SVC_ANON_QUOTA_PER_DAY', type: 'int', min: 0, default: 1_000_000_000 },
  { key: 'user_quota_per_day', env: 'SVC_USER_QUOTA_PER_DAY', type: 'intMap', default: {} },
  { key: 'smtp_enabled', env: 'SVC_SMTP_ENABLED', type: 'bool', default: false },
  { key: 'smtp_host', env: 'SVC_SMTP_HOST', type: 'string', default: null },
  { key: 'smtp_port', env: 'SVC_SMTP_PORT', type: 'int', min: 1, max: 65535, default: 587 },
  { key: 'smtp_user', env: 'SVC_SMTP_USER', type: 'string', default: null },
  { key: 'smtp_password', env: 'SVC_SMTP_PASSWORD', type: 'string', default: null },
  { key: 'smtp_from_addr', env: 'SVC_SMTP_FROM_ADDR', type: 'string', default: null },
  { key: 'smtp_tls_verify', env: 'SVC_SMTP_TLS_VERIFY', type: 'bool', default: true },
  // Specification, "Runtime configuration", second table.
  { key: 'authn_required', env: 'SVC_AUTHN_REQUIRED', type: 'bool', default: true },
  { key: 'jwt_secret', env: 'SVC_JWT_SECRET', type: 'string', default: null },
  { key: 'bootstrap_admin_email', env: 'SVC_BOOTSTRAP_ADMIN_EMAIL', type: 'string', default: null },
  { key: 'bootstrap_admin_password', env: 'SVC_BOOTSTRAP_ADMIN_PASSWORD', type: 'string', default: null },
  {
    key: 'codehost_token',
    env: 'SVC_CODEHOST_TOKEN',
    type: 'string',
    default: null,
    aliases: [
      { env: 'GH_TOKEN', deprecated: false },
      { env: 'GITHUB_TOKEN', deprecated: false },
    ],
  },
  { key: 'otel_enabled', env: 'SVC_OTEL_ENABLED', type: 'bool', default: false },
  { key: 'otel_endpoint', env: 'SVC_OTEL_ENDPOINT', type: 'string', default: null },
  { key: 'otel_service_name', env: 'SVC_OTEL_SERVICE_NAME', type: 'string', default: null },
  { key: 'otel_sample_ratio', env: 'SVC_OTEL_SAMPLE_RATIO', type: 'float', min: 0, max: 1, default: 1.0 },
  {
    key: 'otel_export_delay_ms',
    env: 'SVC_OTEL_EXPORT_DELAY_MS',
    type: 'int',
    min: 1,
    max: 600_000,
    default: 5000,
  },
  {
    key: 'pair_feature_workers',
    env: 'SVC_PAIR_FEATURE_WORKERS',
    type: 'int',
    min: 1,
    max: 256,
    default: null,
  },
  { key: 'align_cache_dir', env: 'SVC_ALIGN_CACHE_DIR', type: 'path', default: null },
  // Decisions of DESIGN.md and operational knobs.
  { key: 'host', env: 'SVC_HOST', type: 'string', default: '127.0.0.1' },
  { key: 'port', env: 'SVC_PORT', type: 'int', min: 0, max: 65535, default: 8000 },
  { key: 'metrics_port', env: 'SVC_METRICS_PORT', type: 'int', min: 0, max: 65535, default: null },
  { key: 'log_format', env: 'SVC_LOG_FORMAT', type: 'enum', values: ['json', 'text'], default: 'json' },
  {
    key: 'log_level',
    env: 'SVC_LOG_LEVEL',
    type: 'enum',
    values: ['debug', 'info', 'warn', 'error'],
    default: 'info',
  },
  { key: 'queue_prefix', env: 'SVC_QUEUE_PREFIX', type: 'string', default: '' },
  { key: 'job_lease_seconds', env: 'SVC_JOB_LEASE_SECONDS', type: 'float', min: 0.5, default: 120 },
  { key: 'job_heartbeat_seconds', env: 'SVC_JOB_HEARTBEAT_SECONDS', type: 'float', min: 0.1, default: 30 },
  {
    key: 'reaper_interval_seconds',
    env: 'SVC_REAPER_INTERVAL_SECONDS',
    type: 'float',
    min: 0.1,
    default: 30,
  },
  { key: 'reaper_max_requeues', env: 'SVC_REAPER_MAX_REQUEUES', type: 'int', min: 0, default: 3 },
  { key: 'publish_timeout_ms', env: 'SVC_PUBLISH_TIMEOUT_MS', type: 'int', min: 100, default: 5000 },
  {
    key: 'uniprot_base_url',
    env: 'SVC_UNIPROT_BASE_URL',
    type: 'string',
    default: 'https://rest.uniprot.org',
  },
  {
    key: 'quickgo_base_url',
    env: 'SVC_QUICKGO_BASE_URL',
    type: 'string',
    default: 'https://www.ebi.ac.uk/QuickGO/services',
  },
  { key: 'models_dir', env: 'SVC_MODELS_DIR', type: 'path', default: 'models' },
  // The aligner of the default prediction path (docs/prediction.md); a name on the PATH or a file.
  { key: 'diamond_bin', env: 'SVC_DIAMOND_BIN', type: 'string', default: 'diamond' },
  // DIAMOND's --block-size (billions of reference letters held at once; unset: chosen from the memory
  // the prediction worker leaves it) and --index-chunks (docs/scaling.md, "DIAMOND settings").
  {
    key: 'diamond_block_size',
    env: 'SVC_DIAMOND_BLOCK_SIZE',
    type: 'float',
    min: 0.01,
    max: 100,
    default: null,
  },
  { key: 'diamond_index_chunks', env: 'SVC_DIAMOND_INDEX_CHUNKS', type: 'int', min: 1, max: 64, default: 4 },
  // Queries a prediction searches in one DIAMOND run across its batches (docs/scaling.md, "One search
  // per job"); 0 searches batch by batch. At most the search step's limit.
  {
    key: 'search_ahead_queries',
    env: 'SVC_SEARCH_AHEAD_QUERIES',
    type: 'int',
    min: 0,
    max: 20000,
    default: 20000,
  },
  // The share of its free heap a prediction worker may give one homology reference pool; a larger
  // pool fails its job with reference_too_large instead of the process (docs/scaling.md).
  {
    key: 'pool_memory_fraction',
    env: 'SVC_POOL_MEMORY_FRACTION',
    type: 'float',
    min: 0,
    max: 1,
    default: 0.5,
  },
  // How a homology prediction stores the terms its query gets from the prior alone: `composed` keeps
  // the set's prior once and each protein's prior weight, and the reads compose those rows;
  // `stored` writes every row (docs/scaling.md, "Storage").
  {
    key: 'prior_rows',
    env: 'SVC_PRIOR_ROWS',
    type: 'enum',
    values: ['composed', 'stored'],
    default: 'composed',
  },
  { key: 'data_dir', env: 'SVC_DATA_DIR', type: 'path', default: null },
  { key: 'public_url', env: 'SVC_PUBLIC_URL', type: 'string', default: 'http://127.0.0.1:8000' },
  { key: 'rpc_timeout_ms', env: 'SVC_RPC_TIMEOUT_MS', type: 'int', min: 100, default: 10000 },
  { key: 'db_pool_size', env: 'SVC_DB_POOL_SIZE', type: 'int', min: 1, max: 500, default: 10 },
  // Hardening: who may be trusted, what the server may read, how much it parses (docs/security.md).
  { key: 'trusted_proxies', env: 'SVC_TRUSTED_PROXIES', type: 'list', default: [] },
  { key: 'source_allowed_roots', env: 'SVC_SOURCE_ALLOWED_ROOTS', type: 'pathList', default: [] },
  { key: 'source_allowed_hosts', env: 'SVC_SOURCE_ALLOWED_HOSTS', type: 'list', default: [] },
  {
    key: 'source_max_line_bytes',
    env: 'SVC_SOURCE_MAX_LINE_BYTES',
    type: 'int',
    min: 1024,
    default: 1024 * 1024,
  },
  {
    key: 'source_max_bytes',
    env: 'SVC_SOURCE_MAX_BYTES',
    type: 'int',
    min: 1024,
    default: 20 * 1024 ** 3,
  },
  // Slow sources: a whole http(s) transfer, and the least it must send per second (finding 13).
  {
    key: 'source_deadline_seconds',
    env: 'SVC_SOURCE_DEADLINE_SECONDS',
    type: 'int',
    min: 1,
    default: 6 * 3600,
  },
  {
    key: 'source_min_bytes_per_second',
    env: 'SVC_SOURCE_MIN_BYTES_PER_SECOND',
    type: 'int',
    min: 0,
    default: 1024,
  },
  {
    key: 'source_rate_window_seconds',
    env: 'SVC_SOURCE_RATE_WINDOW_SECONDS',
    type: 'int',
    min: 1,
    default: 60,
  },
  {
    key: 'source_upload_limit_bytes',
    env: 'SVC_SOURCE_UPLOAD_LIMIT_BYTES',
    type: 'int',
    min: 1024,
    default: 2 * 1024 ** 3,
  },
  {
    key: 'json_body_limit_bytes',
    env: 'SVC_JSON_BODY_LIMIT_BYTES',
    type: 'int',
    min: 1024,
    default: 1024 * 1024,
  },
  { key: 'json_max_depth', env: 'SVC_JSON_MAX_DEPTH', type: 'int', min: 4, max: 1000, default: 64 },
  {
    key: 'job_payload_limit_bytes',
    env: 'SVC_JOB_PAYLOAD_LIMIT_BYTES',
    type: 'int',
    min: 1024,
    default: 256 * 1024,
  },
  {
    key: 'fasta_upload_limit_bytes',
    env: 'SVC_FASTA_UPLOAD_LIMIT_BYTES',
    type: 'int',
    min: 1024,
    default: 50 * 1024 * 1024,
  },
  // A guest's FASTA upload: ten sequences of the longest protein fit with room to spare.
  {
    key: 'guest_upload_limit_bytes',
    env: 'SVC_GUEST_UPLOAD_LIMIT_BYTES',
    type: 'int',
    min: 1024,
    default: 1024 * 1024,
  },
  {
    key: 'fasta_max_sequence_length',
    env: 'SVC_FASTA_MAX_SEQUENCE_LENGTH',
    type: 'int',
    min: 100,
    default: 40_000,
  },
  // FASTA uploads one caller (an account, or a guest's address) may send at the same time, per gateway.
  { key: 'upload_concurrency', env: 'SVC_UPLOAD_CONCURRENCY', type: 'int', min: 1, max: 100, default: 2 },
  {
    key: 'query_sets_per_owner',
    env: 'SVC_QUERY_SETS_PER_OWNER',
    type: 'int',
    min: 1,
    default: 500,
  },
  {
    key: 'guest_result_retention_days',
    env: 'SVC_GUEST_RESULT_RETENTION_DAYS',
    type: 'float',
    // Fractions of a day down to about a second, so a test can watch a result expire.
    min: 0.00001,
    default: 7,
  },
  { key: 'login_max_failures', env: 'SVC_LOGIN_MAX_FAILURES', type: 'int', min: 1, default: 10 },
  { key: 'login_ip_max_failures', env: 'SVC_LOGIN_IP_MAX_FAILURES', type: 'int', min: 1, default: 100 },
  {
    key: 'login_throttle_seconds',
    env: 'SVC_LOGIN_THROTTLE_SECONDS',
    type: 'int',
    min: 1,
    default: 900,
  },
  // Past login_max_failures from one address against one account, that pair waits this long before
  // its next attempt, twice as long after each further failure, up to the cap (docs/security.md).
  { key: 'login_delay_seconds', env: 'SVC_LOGIN_DELAY_SECONDS', type: 'int', min: 1, default: 30 },
  {
    key: 'login_delay_max_seconds',
    env: 'SVC_LOGIN_DELAY_MAX_SECONDS',
    type: 'int',
    min: 1,
    default: 900,
  },
  // Accepted sign-ups per client address (IPv4 address or IPv6 /64) and hour.
  { key: 'signup_address_limit', env: 'SVC_SIGNUP_ADDRESS_LIMIT', type: 'int', min: 1, default: 5 },
  // Caps of the operations open to researchers (docs/security.md, "Caps and staff-only values in payloads").
  {
    key: 'ping_max_sleep_seconds',
    env: 'SVC_PING_MAX_SLEEP_SECONDS',
    type: 'float',
    min: 0,
    max: 3600,
    default: 5,
  },
  {
    key: 'uniprot_row_cap_researcher',
    env: 'SVC_UNIPROT_ROW_CAP_RESEARCHER',
    type: 'int',
    min: 1,
    default: 1000,
  },
  {
    key: 'uniprot_page_cap_researcher',
    env: 'SVC_UNIPROT_PAGE_CAP_RESEARCHER',
    type: 'int',
    min: 1,
    default: 5,
  },
  {
    key: 'uniprot_row_cap_operator',
    env: 'SVC_UNIPROT_ROW_CAP_OPERATOR',
    type: 'int',
    min: 1,
    default: 1_000_000,
  },
  {
    key: 'uniprot_page_cap_operator',
    env: 'SVC_UNIPROT_PAGE_CAP_OPERATOR',
    type: 'int',
    min: 1,
    default: 10_000,
  },
] as const satisfies readonly SettingDef[];

/** Every setting, as the loader and the deployment checks read them. */
export const SETTINGS: readonly SettingDef[] = SETTING_TABLE;

type SettingRow = (typeof SETTING_TABLE)[number];

/** A setting's value type, read off its row: its type (an enum's values), null when it may be unset. */
type ValueOf<D extends SettingRow> =
  | (D extends { type: 'enum'; values: readonly (infer V)[] }
      ? V
      : D extends { type: 'string' | 'path' }
        ? string
        : D extends { type: 'int' | 'float' }
          ? number
          : D extends { type: 'bool' }
            ? boolean
            : D extends { type: 'list' | 'pathList' }
              ? readonly string[]
              : D extends { type: 'intMap' }
                ? Readonly<Record<string, number>>
                : never)
  | (D extends { required: true }
      ? never
      : D extends { default: null }
        ? null
        : D extends { default: unknown }
          ? never
          : null);

/**
 * The loaded settings, keyed as in the table and typed from it: a setting added to the table is a
 * field here, and `buildConfig` reads fields, not string keys with casts.
 */
export type SettingValues = { readonly [D in SettingRow as D['key']]: ValueOf<D> };
