import { resolve } from 'node:path';
import { resolveUserDatabase, UserDatabaseChoice, UserDatabaseTarget } from './user-database';

describe('resolveUserDatabase', () => {
  const BY_MODE: UserDatabaseChoice = { kind: 'by-mode' };
  const CONFIGURED_DIR = '/srv/svc/var/standalone';
  const nothingAnswers = (): Promise<boolean> => Promise.resolve(false);
  const postgresAnswers = (port: number): Promise<boolean> => Promise.resolve(port === 5432);

  it.each<
    [
      string,
      UserDatabaseChoice,
      Record<string, string>,
      (port: number) => Promise<boolean>,
      UserDatabaseTarget,
    ]
  >([
    [
      '--standalone DIR names the folder, whatever the mode',
      { kind: 'standalone', dataDir: 'var/elsewhere' },
      { SVC_MODE: 'services', SVC_DB_URL: 'postgres://db/svc' },
      postgresAnswers,
      { mode: 'standalone', why: '--standalone', dataDir: resolve('var/elsewhere') },
    ],
    [
      '--standalone alone takes the configured folder',
      { kind: 'standalone', dataDir: null },
      { SVC_DB_URL: 'postgres://db/svc' },
      postgresAnswers,
      { mode: 'standalone', why: '--standalone', dataDir: CONFIGURED_DIR },
    ],
    [
      'SVC_MODE=standalone, as npm start reads it',
      BY_MODE,
      { SVC_MODE: 'standalone', SVC_DB_URL: 'postgres://db/svc' },
      postgresAnswers,
      { mode: 'standalone', why: 'SVC_MODE', dataDir: CONFIGURED_DIR },
    ],
    [
      'nothing configured and nothing on the service ports',
      BY_MODE,
      {},
      nothingAnswers,
      {
        mode: 'standalone',
        why: 'no SVC_DB_URL or SVC_AMQP_URL, nothing on 127.0.0.1:5432 or 127.0.0.1:5672',
        dataDir: CONFIGURED_DIR,
      },
    ],
    [
      'a database URL: the services mode',
      BY_MODE,
      { SVC_DB_URL: 'postgres://db/svc' },
      nothingAnswers,
      {
        mode: 'services',
        why: 'SVC_DB_URL set',
      },
    ],
    [
      'PostgreSQL answers on its port',
      BY_MODE,
      {},
      postgresAnswers,
      {
        mode: 'services',
        why: 'PostgreSQL on 127.0.0.1:5432 answered',
      },
    ],
    [
      'SVC_MODE=services',
      BY_MODE,
      { SVC_MODE: 'services' },
      nothingAnswers,
      { mode: 'services', why: 'SVC_MODE' },
    ],
    [
      'an unknown SVC_MODE',
      BY_MODE,
      { SVC_MODE: 'laptop' },
      nothingAnswers,
      {
        mode: 'error',
        message: "SVC_MODE must be 'services' or 'standalone', got 'laptop'",
      },
    ],
  ])('%s', async (_name, choice, settings, probe, expected) => {
    const target = await resolveUserDatabase({
      choice,
      setting: (name) => settings[name],
      probe,
      standaloneDataDir: () => CONFIGURED_DIR,
    });
    expect(target).toEqual(expected);
  });
});
