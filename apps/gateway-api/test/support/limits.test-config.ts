import { AppConfig, loadConfig } from '@svc/platform';

/** A valid configuration with some limit-related fields replaced (for unit tests of limit look-ups). */
export function testConfigFor(overrides: Partial<AppConfig>): AppConfig {
  const base = loadConfig({
    env: {
      SVC_DB_URL: 'postgres://unused',
      SVC_AMQP_URL: 'amqp://unused',
      SVC_ARTIFACTS_DIR: '/tmp/unused',
      SVC_CONFIG_FILE: '/dev/null',
    },
    rootDir: '/nonexistent',
  });
  return { ...base, ...overrides };
}
