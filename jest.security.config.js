// The hostile-input suite (`npm run test:security`): one black-box test per finding and rule of
// docs/security.md, plus a sweep of every route in /openapi.json with hostile variants. Run in band
// against the real PostgreSQL and RabbitMQ with the integration tests' global setup.
const base = require('./jest.config.js');

const integration = base.projects.find((project) => project.displayName === 'integration');

module.exports = {
  ...integration,
  displayName: 'security',
  testMatch: ['**/*.security.spec.ts'],
  testTimeout: 120_000,
};
