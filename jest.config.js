// One Jest run, two projects: pure unit tests, and integration tests against the real PostgreSQL and
// RabbitMQ (a fresh database and queue prefix per run, created by the global setup). The fault
// tolerance suite (*.faults.spec.ts) has its own configuration, jest.faults.config.js.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const moduleNameMapper = {
  '^@svc/platform/tracing$': '<rootDir>/libs/platform/src/tracing/index.ts',
  '^@svc/(contracts|domain|persistence|jobs|bootstrap|platform|inference|go-transfer|use-cases|testing|client)$':
    '<rootDir>/libs/$1/src/index.ts',
};

const common = {
  rootDir: __dirname,
  transform: {
    '^.+\\.ts$': swc,
    '^.+/node_modules/(content-disposition|hyparquet|hyparquet-writer)/.+\\.js$': swc,
  },
  // content-disposition 1.x and the parquet writer (hyparquet-writer, hyparquet) ship ES modules only;
  // Node loads them natively, Jest needs them transpiled.
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition|hyparquet|hyparquet-writer)/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testEnvironment: 'node',
  setupFiles: ['reflect-metadata'],
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
};

module.exports = {
  // Integration tests wait for real workers; a per-project timeout is not honoured with projects.
  testTimeout: 60_000,
  // Two workers by default (the global setup creates a database per worker, so not one per core);
  // --maxWorkers or --runInBand on the command line decide otherwise.
  maxWorkers: 2,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['**/*.spec.ts'],
      testPathIgnorePatterns: [
        '/node_modules/',
        '\\.integration\\.spec\\.ts$',
        '\\.faults\\.spec\\.ts$',
        '\\.security\\.spec\\.ts$',
      ],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['**/*.integration.spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.js',
      // Each Jest worker gets a database, queue prefix and artifact folder of its own.
      setupFiles: [...common.setupFiles, '<rootDir>/libs/testing/src/jest-worker-run.ts'],
      // Standalone runs (SVC_TEST_STANDALONE=1) host workers in the test process; see the environment.
      ...(process.env.SVC_TEST_STANDALONE === '1'
        ? { testEnvironment: '<rootDir>/libs/testing/src/jest-standalone-environment.js' }
        : {}),
      globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.js',
    },
  ],
};
