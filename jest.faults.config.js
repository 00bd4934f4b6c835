// The fault tolerance suite (`npm run test:faults`): workers killed, the broker cut off, the database
// restarted, messages delivered twice. Kept out of `npm test`; run in band, against the real
// PostgreSQL and RabbitMQ with the integration tests' global setup (a fresh database and queue prefix).
const base = require('./jest.config.js');

const integration = base.projects.find((project) => project.displayName === 'integration');

module.exports = {
  ...integration,
  displayName: 'faults',
  testMatch: ['**/*.faults.spec.ts'],
  testTimeout: 240_000,
};
