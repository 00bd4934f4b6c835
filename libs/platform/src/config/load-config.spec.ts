import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AppConfig } from './app-config';
import { ConfigError, loadConfig } from './load-config';
import { SettingDef, SETTINGS } from './settings';

type Env = Record<string, string | undefined>;
type Files = Record<string, string>;

const REQUIRED: Env = {
  SVC_DB_URL: 'postgresql://db.internal/svc',
  SVC_AMQP_URL: 'amqp://mq.internal',
  SVC_ARTIFACTS_DIR: 'var/artifacts',
};

const roots: string[] = [];

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A throwaway project root holding the given files (paths relative to the root). */
function makeRoot(files: Files = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'load-config-'));
  roots.push(root);
  for (const [relative, text] of Object.entries(files)) {
    const path = join(root, relative);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return root;
}

// Every call passes env and rootDir explicitly so the developer's own environment never leaks in.
function load(env: Env, files: Files = {}): { config: AppConfig; warnings: string[]; root: string } {
  const root = makeRoot(files);
  const warnings: string[] = [];
  const config = loadConfig({ env, rootDir: root, onWarning: (message) => warnings.push(message) });
  return { config, warnings, root };
}

function problemsOf(env: Env, files: Files = {}): readonly string[] {
  const root = makeRoot(files);
  try {
    loadConfig({ env, rootDir: root, onWarning: () => undefined });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig defaults', () => {
  it('fills every optional setting from its default', () => {
    const { config, warnings } = load(REQUIRED);
    expect(config).toMatchObject({
      dbUrl: 'postgresql://db.internal/svc',
      amqpUrl: 'amqp://mq.internal',
      storageBackend: 'local',
      storageRoot: null,
      host: '127.0.0.1',
      port: 8000,
      metricsPort: null,
      logFormat: 'json',
      logLevel: 'info',
      queuePrefix: '',
      authnRequired: true,
      anonQuotaPerDay: 1_000_000_000,
      userQuotaPerDay: {},
      rateLimits: {},
      pairFeatureWorkers: null,
      dbPoolSize: 10,
      objectStore: { endpoint: null, accessKey: null, secretKey: null, bucket: 'svc', secure: false },
      smtp: { enabled: false, port: 587 },
      otel: { enabled: false, sampleRatio: 1 },
      jobs: {
        leaseSeconds: 120,
        heartbeatSeconds: 30,
        reaperIntervalSeconds: 30,
        reaperMaxRequeues: 3,
        publishTimeoutMs: 5000,
      },
    });
    expect(config.allowedOrigins).toContain('http://localhost:3000');
    expect(warnings).toEqual([]);
  });
  it('bounds uploads as the design says: FASTA 50 MB (guests 1 MiB), sequences of 40,000 residues', () => {
    const { config } = load(REQUIRED);
    expect(config.security).toMatchObject({
      fastaUploadLimitBytes: 50 * 1024 * 1024,
      guestUploadLimitBytes: 1024 * 1024,
      fastaMaxSequenceLength: 40_000,
      uploadConcurrency: 2,
      querySetsPerOwner: 500,
    });
    expect(
      load({ ...REQUIRED, SVC_FASTA_UPLOAD_LIMIT_BYTES: '1048576' }).config.security.fastaUploadLimitBytes,
    ).toBe(1024 * 1024);
  });
});

describe('loadConfig precedence', () => {
  const cases: { name: string; yaml?: string; dotenv?: string; env?: string; expected: number }[] = [
    { name: 'default when no layer sets it', expected: 8000 },
    { name: 'YAML over the default', yaml: '7001', expected: 7001 },
    { name: '.env over YAML', yaml: '7001', dotenv: '7002', expected: 7002 },
    { name: 'environment over .env and YAML', yaml: '7001', dotenv: '7002', env: '7003', expected: 7003 },
    { name: 'environment over YAML without .env', yaml: '7001', env: '7003', expected: 7003 },
    { name: '.env over the default without YAML', dotenv: '7002', expected: 7002 },
  ];
  it.each(cases)('$name', ({ yaml, dotenv, env, expected }) => {
    const files: Files = {};
    if (yaml !== undefined) files['config/system.yaml'] = `port: ${yaml}\n`;
    if (dotenv !== undefined) files['.env'] = `SVC_PORT=${dotenv}\n`;
    const { config } = load({ ...REQUIRED, ...(env === undefined ? {} : { SVC_PORT: env }) }, files);
    expect(config.port).toBe(expected);
  });

  it('takes the required settings from .env and YAML as well as the environment', () => {
    const { config } = load(
      {},
      {
        '.env': 'SVC_DB_URL=postgresql://from-dotenv/svc\nSVC_AMQP_URL=amqp://from-dotenv\n',
        'config/system.yaml': 'artifacts_dir: /srv/artifacts\namqp_url: amqp://from-yaml\n',
      },
    );
    expect(config).toMatchObject({
      dbUrl: 'postgresql://from-dotenv/svc',
      amqpUrl: 'amqp://from-dotenv',
      artifactsDir: '/srv/artifacts',
    });
  });

  it('treats an environment variable set to undefined as unset', () => {
    const { config } = load({ ...REQUIRED, SVC_PORT: undefined }, { '.env': 'SVC_PORT=7002\n' });
    expect(config.port).toBe(7002);
  });
});

describe('loadConfig YAML file', () => {
  const other = 'port: 7100\nlog_level: debug\n';
  const cases: { name: string; env: Env; files: Files }[] = [
    {
      name: 'SVC_CONFIG_FILE relative to the root',
      env: { SVC_CONFIG_FILE: 'deploy/other.yaml' },
      files: { 'deploy/other.yaml': other },
    },
    {
      name: 'SVC_CONFIG_FILE set in .env',
      env: {},
      files: { '.env': 'SVC_CONFIG_FILE=deploy/other.yaml\n', 'deploy/other.yaml': other },
    },
  ];
  it.each(cases)('reads $name instead of config/system.yaml', ({ env, files }) => {
    const { config } = load({ ...REQUIRED, ...env }, { ...files, 'config/system.yaml': 'port: 7000\n' });
    expect(config).toMatchObject({ port: 7100, logLevel: 'debug' });
  });

  it('reads an absolute SVC_CONFIG_FILE', () => {
    const elsewhere = makeRoot({ 'svc.yaml': 'port: 7200\n' });
    const { config } = load({ ...REQUIRED, SVC_CONFIG_FILE: join(elsewhere, 'svc.yaml') });
    expect(config.port).toBe(7200);
  });

  it('accepts an empty YAML file and a key written without a value', () => {
    expect(load(REQUIRED, { 'config/system.yaml': '# nothing yet\n' }).config.port).toBe(8000);
    const { config } = load(REQUIRED, { 'config/system.yaml': 'metrics_port:\nhost: ~\n' });
    expect(config).toMatchObject({ metricsPort: null, host: '127.0.0.1' });
  });

  it('reports an explicit SVC_CONFIG_FILE that does not exist', () => {
    const problems = problemsOf({ ...REQUIRED, SVC_CONFIG_FILE: 'config/missing.yaml' });
    expect(problems).toEqual([expect.stringMatching(/config[/\\]missing\.yaml does not exist$/)]);
  });

  it('reports unknown keys but allows the auth section', () => {
    const yaml = 'port: 7000\ncolour: blue\nauth:\n  providers: []\n';
    expect(problemsOf(REQUIRED, { 'config/system.yaml': yaml })).toEqual([
      expect.stringContaining("unknown setting 'colour'"),
    ]);
  });

  const malformed: { name: string; yaml: string; problem: RegExp }[] = [
    { name: 'a list at the top level', yaml: '- port\n- host\n', problem: /the top level must be a mapping/ },
    { name: 'a scalar at the top level', yaml: 'just text\n', problem: /the top level must be a mapping/ },
    { name: 'invalid YAML', yaml: 'port: [1, 2\n', problem: /system\.yaml: / },
  ];
  it.each(malformed)('reports $name', ({ yaml, problem }) => {
    expect(problemsOf(REQUIRED, { 'config/system.yaml': yaml })).toEqual([expect.stringMatching(problem)]);
  });
});

describe('loadConfig deprecated aliases', () => {
  const withoutUrls: Env = { SVC_ARTIFACTS_DIR: 'var/artifacts' };
  const cases: {
    name: string;
    env: Env;
    files?: Files;
    dbUrl: string;
    amqpUrl: string;
    warnings: string[];
  }[] = [
    {
      name: 'DATABASE_URL and AMQP_URL are honoured with a warning',
      env: { ...withoutUrls, DATABASE_URL: 'postgresql://legacy/svc', AMQP_URL: 'amqp://legacy' },
      dbUrl: 'postgresql://legacy/svc',
      amqpUrl: 'amqp://legacy',
      warnings: [
        'DATABASE_URL is deprecated; set SVC_DB_URL instead',
        'AMQP_URL is deprecated; set SVC_AMQP_URL instead',
      ],
    },
    {
      name: 'SVC_DB_URL wins over DATABASE_URL without a warning',
      env: { ...REQUIRED, DATABASE_URL: 'postgresql://legacy/svc', AMQP_URL: 'amqp://legacy' },
      dbUrl: 'postgresql://db.internal/svc',
      amqpUrl: 'amqp://mq.internal',
      warnings: [],
    },
    {
      name: 'an alias in .env is honoured with a warning',
      env: withoutUrls,
      files: { '.env': 'DATABASE_URL=postgresql://dotenv-legacy/svc\nSVC_AMQP_URL=amqp://dotenv\n' },
      dbUrl: 'postgresql://dotenv-legacy/svc',
      amqpUrl: 'amqp://dotenv',
      warnings: ['DATABASE_URL is deprecated; set SVC_DB_URL instead'],
    },
    {
      // The environment as a whole outranks .env, aliases included.
      name: 'an alias in the environment wins over SVC_DB_URL in .env',
      env: { ...withoutUrls, DATABASE_URL: 'postgresql://legacy/svc', SVC_AMQP_URL: 'amqp://env' },
      files: { '.env': 'SVC_DB_URL=postgresql://dotenv/svc\n' },
      dbUrl: 'postgresql://legacy/svc',
      amqpUrl: 'amqp://env',
      warnings: ['DATABASE_URL is deprecated; set SVC_DB_URL instead'],
    },
  ];
  it.each(cases)('$name', ({ env, files, dbUrl, amqpUrl, warnings }) => {
    const loaded = load(env, files);
    expect(loaded.config).toMatchObject({ dbUrl, amqpUrl });
    expect(loaded.warnings).toEqual(warnings);
  });

  it('accepts GH_TOKEN as a non-deprecated alias of SVC_CODEHOST_TOKEN', () => {
    const { config, warnings } = load({ ...REQUIRED, GH_TOKEN: 'ghp_example' });
    expect(config.codehostToken).toBe('ghp_example');
    expect(warnings).toEqual([]);
  });
});

describe('loadConfig validation', () => {
  it('lists every invalid setting in one ConfigError', () => {
    const env: Env = {
      SVC_AMQP_URL: 'amqp://mq.internal',
      SVC_ARTIFACTS_DIR: 'var/artifacts',
      SVC_SMTP_ENABLED: 'maybe',
      SVC_DB_POOL_SIZE: 'ten',
      SVC_PORT: '70000',
      SVC_LOG_LEVEL: 'verbose',
      SVC_RATELIMIT_POST_JOBS: 'lots',
    };
    const root = makeRoot({ 'config/system.yaml': 'colour: blue\n' });
    let caught: unknown;
    try {
      loadConfig({ env, rootDir: root, onWarning: () => undefined });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const { problems, message } = caught as ConfigError;
    const expected = [
      "unknown setting 'colour'",
      'db_url is required (set SVC_DB_URL)',
      "smtp_enabled from environment variable SVC_SMTP_ENABLED: expected a boolean (1/true/yes/on or 0/false/no/off), got 'maybe'",
      "db_pool_size from environment variable SVC_DB_POOL_SIZE: expected a number, got 'ten'",
      'port from environment variable SVC_PORT: must be at most 65535',
      "log_level from environment variable SVC_LOG_LEVEL: expected one of debug, info, warn, error, got 'verbose'",
      "SVC_RATELIMIT_POST_JOBS: 'lots' is not a rate like 100/minute",
    ];
    expect(problems).toHaveLength(expected.length);
    expect(problems).toEqual(
      expect.arrayContaining(expected.map((text): unknown => expect.stringContaining(text))),
    );
    for (const text of expected) expect(message).toContain(text);
  });

  const invalid: { name: string; env: Env; problem: string }[] = [
    { name: 'a fractional int', env: { SVC_DB_POOL_SIZE: '2.5' }, problem: "expected an integer, got '2.5'" },
    { name: 'an int below its minimum', env: { SVC_DB_POOL_SIZE: '0' }, problem: 'must be at least 1' },
    {
      name: 'a float above its maximum',
      env: { SVC_OTEL_SAMPLE_RATIO: '1.5' },
      problem: 'must be at most 1',
    },
    { name: 'an empty int with a default', env: { SVC_PORT: '' }, problem: "expected a number, got ''" },
    {
      name: 'a DIAMOND block size of 0',
      env: { SVC_DIAMOND_BLOCK_SIZE: '0' },
      problem: 'must be at least 0.01',
    },
    {
      name: 'DIAMOND index chunks that are no integer',
      env: { SVC_DIAMOND_INDEX_CHUNKS: '4; rm -rf /' },
      problem: 'SVC_DIAMOND_INDEX_CHUNKS',
    },
    {
      name: 'a bad storage backend',
      env: { SVC_STORAGE_BACKEND: 'ftp' },
      problem: 'expected one of local, minio, s3',
    },
    {
      name: 'an empty required setting',
      env: { SVC_DB_URL: '  ' },
      problem: 'db_url from environment variable SVC_DB_URL: must not be empty',
    },
  ];
  it.each(invalid)('rejects $name', ({ env, problem }) => {
    expect(problemsOf({ ...REQUIRED, ...env })).toEqual([expect.stringContaining(problem)]);
  });

  it('rejects YAML values of the wrong shape', () => {
    const yaml = 'host:\n  nested: true\nlog_format: 3\n';
    expect(problemsOf(REQUIRED, { 'config/system.yaml': yaml })).toEqual([
      expect.stringContaining('host from'),
      expect.stringContaining('log_format from'),
    ]);
  });

  const accepted: { name: string; env: Env; expected: Partial<Record<keyof AppConfig, unknown>> }[] = [
    {
      name: 'an enum in any case',
      env: { SVC_LOG_LEVEL: ' DEBUG ', SVC_STORAGE_BACKEND: 'MinIO' },
      expected: { logLevel: 'debug', storageBackend: 'minio' },
    },
    {
      name: 'an empty optional int as its null default',
      env: { SVC_METRICS_PORT: '' },
      expected: { metricsPort: null },
    },
    { name: 'port 0 for an ephemeral port', env: { SVC_PORT: '0' }, expected: { port: 0 } },
    {
      name: 'DIAMOND settings: unset block size (chosen from memory), explicit chunks',
      env: { SVC_DIAMOND_INDEX_CHUNKS: '8' },
      expected: { diamondBlockSize: null, diamondIndexChunks: 8 },
    },
    {
      name: 'a DIAMOND block size',
      env: { SVC_DIAMOND_BLOCK_SIZE: '0.25' },
      expected: { diamondBlockSize: 0.25 },
    },
    {
      name: 'an empty optional string as its default',
      env: { SVC_HOST: '', SVC_OBJECT_STORE_BUCKET: '' },
      expected: { host: '127.0.0.1' },
    },
    {
      name: 'surrounding whitespace in text',
      env: { SVC_JWT_SECRET: '  s3cret  ' },
      expected: { jwtSecret: 's3cret' },
    },
  ];
  it.each(accepted)('accepts $name', ({ env, expected }) => {
    expect(load({ ...REQUIRED, ...env }).config).toMatchObject(expected);
  });
});

describe('loadConfig bool parsing', () => {
  const cases: [string, boolean][] = [
    ['1', true],
    ['true', true],
    ['yes', true],
    ['on', true],
    [' TRUE ', true],
    ['Yes', true],
    ['0', false],
    ['false', false],
    ['no', false],
    ['off', false],
    ['', false],
  ];
  it.each(cases)('reads %j as %s', (raw, expected) => {
    expect(load({ ...REQUIRED, SVC_OBJECT_STORE_SECURE: raw }).config.objectStore.secure).toBe(expected);
  });

  it.each(['2', 'y', 'enabled'])('rejects %j', (raw) => {
    expect(problemsOf({ ...REQUIRED, SVC_OBJECT_STORE_SECURE: raw })).toEqual([
      expect.stringContaining(`got '${raw}'`),
    ]);
  });

  it('reads YAML booleans', () => {
    const { config } = load(REQUIRED, {
      'config/system.yaml': 'object_store_secure: true\nauthn_required: false\n',
    });
    expect(config).toMatchObject({ objectStore: { secure: true }, authnRequired: false });
  });

  it('turns the e-mail flows on when an SMTP host is set, and needs a host when asked to', () => {
    expect(load({ ...REQUIRED, SVC_SMTP_HOST: 'mail.local' }).config.smtp.enabled).toBe(true);
    expect(load(REQUIRED).config.smtp.enabled).toBe(false);
    expect(problemsOf({ ...REQUIRED, SVC_SMTP_ENABLED: 'true' })).toEqual([
      'smtp_enabled is on but smtp_host is not set (SVC_SMTP_HOST)',
    ]);
  });

  it('reads auth.quotas from the YAML file and reports bad entries', () => {
    const { config } = load(REQUIRED, {
      'config/system.yaml':
        'auth:\n  quotas:\n    researcher:\n      jobs: 50\n      post_jobs: 20/minute\n    operator:\n      jobs: null\n',
    });
    expect(config.authQuotas).toEqual({
      researcher: { jobs: 50, post_jobs: '20/minute' },
      operator: { jobs: null },
    });
    expect(
      problemsOf(REQUIRED, {
        'config/system.yaml':
          'auth:\n  quotas:\n    wizard:\n      jobs: 1\n    researcher:\n      jobs: lots\n',
      }),
    ).toHaveLength(2);
  });
});

describe('loadConfig list parsing', () => {
  const cases: { name: string; raw: string; expected: string[] }[] = [
    {
      name: 'comma-separated',
      raw: 'https://a.example, https://b.example',
      expected: ['https://a.example', 'https://b.example'],
    },
    {
      name: 'comma-separated with empty items',
      raw: ',https://a.example,,',
      expected: ['https://a.example'],
    },
    {
      name: 'a JSON list',
      raw: '["https://a.example","https://b.example"]',
      expected: ['https://a.example', 'https://b.example'],
    },
    { name: 'an empty JSON list', raw: '[]', expected: [] },
    { name: 'an empty value', raw: '', expected: [] },
  ];
  it.each(cases)('reads $name', ({ raw, expected }) => {
    expect(load({ ...REQUIRED, SVC_ALLOWED_ORIGINS: raw }).config.allowedOrigins).toEqual(expected);
  });

  it('reads a YAML sequence', () => {
    const yaml = 'allowed_origins:\n  - https://a.example\n  - " https://b.example "\n';
    expect(load(REQUIRED, { 'config/system.yaml': yaml }).config.allowedOrigins).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });

  it('rejects malformed JSON', () => {
    expect(problemsOf({ ...REQUIRED, SVC_ALLOWED_ORIGINS: '["https://a.example"' })).toEqual([
      expect.stringContaining('expected a JSON list or comma-separated values'),
    ]);
  });
});

describe('loadConfig intMap parsing', () => {
  const cases: { name: string; env?: string; yaml?: string; expected: Record<string, number> }[] = [
    {
      name: 'key=value pairs',
      env: 'researcher=1000,operator=5',
      expected: { researcher: 1000, operator: 5 },
    },
    {
      name: 'key=value pairs with spaces',
      env: ' researcher = 1000 , operator=5 ',
      expected: { researcher: 1000, operator: 5 },
    },
    {
      name: 'a JSON object',
      env: '{"researcher": 1000, "operator": "5"}',
      expected: { researcher: 1000, operator: 5 },
    },
    {
      name: 'a YAML mapping',
      yaml: 'user_quota_per_day:\n  researcher: 1000\n  operator: 5\n',
      expected: { researcher: 1000, operator: 5 },
    },
    { name: 'an empty value', env: '', expected: {} },
    { name: 'a role that happens to be called error', env: 'error=3', expected: { error: 3 } },
  ];
  it.each(cases)('reads $name', ({ env, yaml, expected }) => {
    const extra: Env = env === undefined ? {} : { SVC_USER_QUOTA_PER_DAY: env };
    const files: Files = yaml === undefined ? {} : { 'config/system.yaml': yaml };
    expect(load({ ...REQUIRED, ...extra }, files).config.userQuotaPerDay).toEqual(expected);
  });

  const invalid: { name: string; raw: string; problem: string }[] = [
    { name: 'a non-number', raw: 'researcher=lots', problem: "bad entry 'researcher=lots'" },
    { name: 'a negative number', raw: 'researcher=-1', problem: "bad entry 'researcher=-1'" },
    { name: 'a fraction', raw: 'researcher=1.5', problem: "bad entry 'researcher=1.5'" },
    { name: 'a missing value', raw: 'researcher=', problem: "bad entry 'researcher='" },
    { name: 'a missing role', raw: '=5', problem: "bad entry '=5'" },
    { name: 'a JSON null value', raw: '{"researcher": null}', problem: "bad entry 'researcher=null'" },
    { name: 'malformed JSON', raw: '{researcher: 1}', problem: 'expected a JSON object or key=value pairs' },
  ];
  it.each(invalid)('rejects $name', ({ raw, problem }) => {
    expect(problemsOf({ ...REQUIRED, SVC_USER_QUOTA_PER_DAY: raw })).toEqual([
      expect.stringContaining(problem),
    ]);
  });

  it('rejects a YAML list', () => {
    const yaml = 'user_quota_per_day:\n  - 5\n';
    expect(problemsOf(REQUIRED, { 'config/system.yaml': yaml })).toEqual([
      expect.stringContaining('expected a mapping of role to integer'),
    ]);
  });
});

describe('loadConfig rate limits', () => {
  it.each(['10/second', '10/minute', '500/hour', '10000/day'])(
    'accepts SVC_RATELIMIT_POST_JOBS=%s',
    (rate) => {
      expect(load({ ...REQUIRED, SVC_RATELIMIT_POST_JOBS: rate }).config.rateLimits).toEqual({
        post_jobs: rate,
      });
    },
  );

  it('collects limits from .env and the environment, the environment winning', () => {
    const { config } = load(
      { ...REQUIRED, SVC_RATELIMIT_POST_JOBS: '10/minute' },
      { '.env': 'SVC_RATELIMIT_POST_JOBS=1/day\nSVC_RATELIMIT_GET_RESULTS=100/minute\n' },
    );
    expect(config.rateLimits).toEqual({ post_jobs: '10/minute', get_results: '100/minute' });
  });

  it('ignores a bad .env value that the environment overrides', () => {
    const { config } = load(
      { ...REQUIRED, SVC_RATELIMIT_POST_JOBS: '10/minute' },
      { '.env': 'SVC_RATELIMIT_POST_JOBS=often\n' },
    );
    expect(config.rateLimits).toEqual({ post_jobs: '10/minute' });
  });

  it.each(['10', '10/fortnight', '/minute', '10 per minute', '-1/minute', '1.5/minute'])(
    'rejects %j',
    (rate) => {
      expect(problemsOf({ ...REQUIRED, SVC_RATELIMIT_POST_JOBS: rate })).toEqual([
        `SVC_RATELIMIT_POST_JOBS: '${rate}' is not a rate like 100/minute`,
      ]);
    },
  );
});

describe('loadConfig paths', () => {
  it('resolves relative paths against the root and keeps absolute ones', () => {
    const absolute = join(tmpdir(), 'embeddings.bin');
    const { config, root } = load(
      { ...REQUIRED, SVC_STORAGE_ROOT: 'var/store', SVC_TERM_EMBEDDING_PATH: absolute },
      { 'config/system.yaml': 'align_cache_dir: cache/align\n' },
    );
    expect(config).toMatchObject({
      artifactsDir: join(root, 'var/artifacts'),
      storageRoot: join(root, 'var/store'),
      termEmbeddingPath: absolute,
      alignCacheDir: join(root, 'cache/align'),
    });
  });
});

describe('loadConfig result', () => {
  it('is deeply frozen', () => {
    const { config } = load(REQUIRED);
    const parts: [string, unknown][] = [
      ['config', config],
      ['objectStore', config.objectStore],
      ['allowedOrigins', config.allowedOrigins],
      ['userQuotaPerDay', config.userQuotaPerDay],
      ['smtp', config.smtp],
      ['rateLimits', config.rateLimits],
      ['otel', config.otel],
      ['jobs', config.jobs],
    ];
    for (const [name, part] of parts) expect([name, Object.isFrozen(part)]).toEqual([name, true]);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
  });
});

/** A valid value for the setting that differs from its default, as an environment variable's text. */
function otherValue(def: SettingDef): string {
  const fallback = def.default;
  switch (def.type) {
    case 'string':
      return `other-${def.key}`;
    case 'path':
      return `/srv/other/${def.key}`;
    case 'int':
    case 'float': {
      const base = typeof fallback === 'number' ? fallback : (def.min ?? 1);
      const next = def.max !== undefined && base + 1 > def.max ? base - 1 : base + 1;
      return String(Math.max(next, def.min ?? next));
    }
    case 'bool':
      return fallback === true ? 'false' : 'true';
    case 'enum':
      return (def.values ?? []).find((value) => value !== fallback) ?? '';
    case 'list':
      return 'one.example,two.example';
    case 'pathList':
      return '/srv/one,/srv/two';
    case 'intMap':
      return 'researcher=7';
  }
}

describe('the settings table', () => {
  // buildConfig reads the table's typed values; a row that never reaches AppConfig would be a
  // setting an operator can set to no effect.
  it.each(SETTINGS.map((def) => [def.key, def] as const))(
    'carries %s into the loaded config',
    (_key, def) => {
      const env = { ...REQUIRED, [def.env]: otherValue(def) };
      if (def.key === 'smtp_enabled') {
        // SMTP is on whenever a host is set; the switch alone only asks for one.
        expect(() => load(env)).toThrow(ConfigError);
        return;
      }
      const base = load(REQUIRED).config;
      const changed = load(env).config;
      expect(JSON.stringify(changed)).not.toEqual(JSON.stringify(base));
    },
  );
});
