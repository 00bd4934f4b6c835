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
  '^@svc/(contracts|domain|persistence|jobs|platform|inference|testing)$': '<rootDir>/libs/$1/src/index.ts',
};

const common = {
  rootDir: __dirname,
  transform: { '^.+\\.ts$': swc, '^.+/node_modules/content-disposition/.+\\.js$': swc },
  // content-disposition 1.x ships ES modules only; Node loads it natively, Jest needs it transpiled.
  transformIgnorePatterns: ['/node_modules/(?!content-disposition/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testEnvironment: 'node',
  setupFiles: ['reflect-metadata'],
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
};

module.exports = {
  // Integration tests wait for real workers; a per-project timeout is not honoured with projects.
  testTimeout: 60_000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '\\.integration\\.spec\\.ts$', '\\.faults\\.spec\\.ts$'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['**/*.integration.spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.js',
      globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.js',
    },
  ],
};
