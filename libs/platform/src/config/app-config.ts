export type StorageBackend = 'local' | 'minio' | 's3';
export type LogFormat = 'json' | 'text';
/** services: RabbitMQ and a PostgreSQL server; standalone: one process, in-process queues, embedded PostgreSQL. */
export type RunMode = 'services' | 'standalone';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The validated, frozen runtime configuration. Only the config loader reads the environment. */
export interface AppConfig {
  readonly dbUrl: string;
  readonly amqpUrl: string;
  readonly artifactsDir: string;
  readonly mode: RunMode;
  /** Where the standalone mode keeps its embedded database (the artifacts stay in artifactsDir). */
  readonly standaloneDataDir: string;
  readonly storageBackend: StorageBackend;
  readonly storageRoot: string | null;
  readonly objectStore: {
    readonly endpoint: string | null;
    readonly accessKey: string | null;
    readonly secretKey: string | null;
    readonly bucket: string;
    /** TLS when the endpoint names no scheme (`host:port`); an explicit `http://` or `https://` wins. */
    readonly secure: boolean;
    /** Signing region; S3-compatible servers accept any, AWS needs the bucket's. */
    readonly region: string;
  };
  readonly allowedOrigins: readonly string[];
  readonly termEmbeddingPath: string | null;
  /** The DIAMOND binary (`SVC_DIAMOND_BIN`), `diamond` on the PATH by default. */
  readonly diamondBin: string;
  /** DIAMOND's `--block-size` (`SVC_DIAMOND_BLOCK_SIZE`); null: chosen from the memory left to it. */
  readonly diamondBlockSize: number | null;
  /** DIAMOND's `--index-chunks` (`SVC_DIAMOND_INDEX_CHUNKS`, default 4). */
  readonly diamondIndexChunks: number;
  /**
   * Queries one DIAMOND run searches across a prediction's batches (`SVC_SEARCH_AHEAD_QUERIES`,
   * default 20,000; 0: one run per batch).
   */
  readonly searchAheadQueries: number;
  /** Share of a prediction worker's free heap one homology pool may take (`SVC_POOL_MEMORY_FRACTION`). */
  readonly poolMemoryFraction: number;
  /**
   * How a homology prediction stores its prior-only rows (`SVC_PRIOR_ROWS`): `composed`, the set's
   * prior once and a weight per protein and aspect, composed at read; or `stored`, a row each.
   */
  readonly priorRows: 'composed' | 'stored';
  /** Optional benchmark config file (stages, baseline scoring, labels); missing means defaults. */
  readonly benchmarkConfigPath: string | null;
  /** Folder whose package.json dependencies are scanned for plugins; the working directory when null. */
  readonly pluginRoot: string | null;
  /** YAML list of the stack's repositories for `/stack`. */
  readonly stackFilePath: string | null;
  /** A thesis PDF; `/stack` links it while the file exists. */
  readonly thesisPdfPath: string | null;
  /** Base URL of the code host's REST API (`/stack/pulls`). */
  readonly codehostApiUrl: string;
  readonly anonQuotaPerDay: number;
  readonly userQuotaPerDay: Readonly<Record<string, number>>;
  readonly smtp: {
    readonly enabled: boolean;
    readonly host: string | null;
    readonly port: number;
    readonly user: string | null;
    readonly password: string | null;
    readonly fromAddr: string | null;
    /** Verify the SMTP server's TLS certificate (turn off only for a private test relay). */
    readonly tlsVerify: boolean;
  };
  readonly authnRequired: boolean;
  readonly jwtSecret: string | null;
  /** `SVC_RATELIMIT_<RESOURCE>=100/minute`, keyed by the lower-case resource name. */
  readonly rateLimits: Readonly<Record<string, string>>;
  readonly bootstrapAdminEmail: string | null;
  readonly bootstrapAdminPassword: string | null;
  readonly codehostToken: string | null;
  readonly otel: {
    readonly enabled: boolean;
    readonly endpoint: string | null;
    readonly serviceName: string | null;
    readonly sampleRatio: number;
    /** Longest wait before a batch of finished spans is exported. */
    readonly exportDelayMs: number;
  };
  readonly pairFeatureWorkers: number | null;
  readonly alignCacheDir: string | null;
  readonly host: string;
  readonly port: number;
  readonly metricsPort: number | null;
  readonly logFormat: LogFormat;
  readonly logLevel: LogLevel;
  readonly queuePrefix: string;
  readonly jobs: {
    readonly leaseSeconds: number;
    readonly heartbeatSeconds: number;
    readonly reaperIntervalSeconds: number;
    readonly reaperMaxRequeues: number;
    readonly publishTimeoutMs: number;
  };
  readonly dbPoolSize: number;
  /** Base address used in links the service sends (e-mail flows). */
  readonly publicUrl: string;
  readonly rpcTimeoutMs: number;
  /** Base address of the UniProt REST API (a mirror or a test server can stand in). */
  readonly uniprotBaseUrl: string;
  /** Base address of the QuickGO REST services. */
  readonly quickgoBaseUrl: string;
  /** Folder that relative file paths in load payloads resolve against (default: the working directory). */
  readonly dataDir: string | null;
  /** Folder holding one sub-folder per protein language model (`<model_name>/model.onnx` + tokenizer). */
  readonly modelsDir: string;
  /** Role quotas and rate limits from the YAML file's `auth.quotas` mapping. */
  readonly authQuotas: Readonly<Record<string, Readonly<Record<string, number | string | null>>>>;
  /** Defences against hostile input and callers (docs/security.md). */
  readonly security: SecuritySettings;
}

export interface SecuritySettings {
  /** CIDRs (or single addresses) of proxies whose X-Forwarded-For / Forwarded headers are believed. */
  readonly trustedProxies: readonly string[];
  /** Directories under which file:// and bare-path sources may be read (after symlinks); none by default. */
  readonly sourceAllowedRoots: readonly string[];
  /** Host names that http(s) sources may reach even when they resolve to non-public addresses. */
  readonly sourceAllowedHosts: readonly string[];
  /** Longest line a text source may have (bytes). */
  readonly sourceMaxLineBytes: number;
  /** Most bytes a source may decompress to. */
  readonly sourceMaxBytes: number;
  /** Longest an http(s) source may take, from its first request to its last byte. */
  readonly sourceDeadlineSeconds: number;
  /** Fewest bytes per second an http(s) source must send, averaged over each rate window (0: any). */
  readonly sourceMinBytesPerSecond: number;
  /** The window the minimum transfer rate is averaged over. */
  readonly sourceRateWindowSeconds: number;
  /** Largest file the source upload route accepts. */
  readonly sourceUploadLimitBytes: number;
  /** Largest JSON request body, enforced while reading. */
  readonly jsonBodyLimitBytes: number;
  /** Deepest nesting a JSON request body may have. */
  readonly jsonMaxDepth: number;
  /** Largest job payload (and experiment config), as JSON text. */
  readonly jobPayloadLimitBytes: number;
  /** Largest FASTA upload (query sets, one-click annotation). */
  readonly fastaUploadLimitBytes: number;
  /** Largest FASTA upload of a guest (anonymous one-click annotation). */
  readonly guestUploadLimitBytes: number;
  /** Longest sequence (residues) an uploaded FASTA record may have. */
  readonly fastaMaxSequenceLength: number;
  /** FASTA uploads one caller may send at once, per gateway replica (429 beyond). */
  readonly uploadConcurrency: number;
  /** Query sets one researcher may keep. */
  readonly querySetsPerOwner: number;
  /** How long a guest's one-click result lives before the purge job removes it. */
  readonly guestResultRetentionDays: number;
  /**
   * Failed sign-ins per account from one client address (refused sign-ups and e-mail requests: per
   * account) within the throttle window; then the progressive delay (sign-in) or 429.
   */
  readonly loginMaxFailures: number;
  /** Failed logins per client address within the throttle window before 429. */
  readonly loginIpMaxFailures: number;
  /** The login throttle's window. */
  readonly loginThrottleSeconds: number;
  /** The first delay of an (account, address) pair past loginMaxFailures; doubles with each failure. */
  readonly loginDelaySeconds: number;
  /** The longest delay of an (account, address) pair. */
  readonly loginDelayMaxSeconds: number;
  /** Accepted sign-ups per client address group and hour. */
  readonly signupAddressLimit: number;
  /** Longest `sleep_seconds` of a ping below role operator. */
  readonly pingMaxSleepSeconds: number;
  /** Most UniProt rows one `fetch_uniprot_metadata` job reads, below role operator and from it. */
  readonly uniprotMaxRows: { readonly researcher: number; readonly operator: number };
  /** Most UniProt pages (requests) one `fetch_uniprot_metadata` job reads, likewise. */
  readonly uniprotMaxPages: { readonly researcher: number; readonly operator: number };
}
