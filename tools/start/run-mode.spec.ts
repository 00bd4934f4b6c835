import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Plain-Node module used by `npm start` before dependencies exist; loaded as it runs there.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const runMode = require('./run-mode') as {
  answers(port: number): Promise<boolean>;
  chooseMode(input: {
    setting: (name: string) => string | undefined;
    probe?: (port: number) => Promise<boolean>;
    ports?: { postgres: number; rabbitmq: number };
  }): Promise<{ mode?: string; why?: string; error?: string }>;
  readSetting(
    name: string,
    env: Record<string, string | undefined>,
    dotenv: string | null,
  ): string | undefined;
};

const from = (values: Record<string, string>) => (name: string) => values[name];
const nothingAnswers = async () => false;

describe('npm start run mode', () => {
  it('follows SVC_MODE, refuses an unknown one, and otherwise prefers configured URLs', async () => {
    expect(await runMode.chooseMode({ setting: from({ SVC_MODE: 'standalone', SVC_DB_URL: 'x' }) })).toEqual({
      mode: 'standalone',
      why: 'SVC_MODE',
    });
    expect((await runMode.chooseMode({ setting: from({ SVC_MODE: 'laptop' }) })).error).toMatch(
      /SVC_MODE must be 'services' or 'standalone', got 'laptop'/,
    );
    const byUrl = await runMode.chooseMode({
      setting: from({ SVC_AMQP_URL: 'amqp://x' }),
      probe: nothingAnswers,
    });
    expect(byUrl).toEqual({ mode: 'services', why: 'SVC_AMQP_URL set' });
  });

  it('picks the services mode when something listens on a service port, else the standalone mode', async () => {
    const servers: Server[] = [];
    const listen = () =>
      new Promise<number>((resolve) => {
        const server = createServer((socket) => socket.destroy()).listen(0, '127.0.0.1', () =>
          resolve((server.address() as { port: number }).port),
        );
        servers.push(server);
      });
    const open = await listen();
    const closedServer = createServer();
    const closed = await new Promise<number>((resolve) =>
      closedServer.listen(0, '127.0.0.1', () => resolve((closedServer.address() as { port: number }).port)),
    );
    await new Promise((resolve) => closedServer.close(resolve));
    try {
      const services = await runMode.chooseMode({
        setting: from({}),
        ports: { postgres: open, rabbitmq: closed },
      });
      expect(services).toEqual({ mode: 'services', why: `PostgreSQL on 127.0.0.1:${open} answered` });
      const standalone = await runMode.chooseMode({
        setting: from({}),
        ports: { postgres: closed, rabbitmq: closed },
      });
      expect(standalone.mode).toBe('standalone');
      expect(standalone.why).toContain(`nothing on 127.0.0.1:${closed}`);
    } finally {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    }
  });

  it('reads a setting from the environment first, then from the .env file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-mode-'));
    try {
      const dotenv = join(dir, '.env');
      writeFileSync(dotenv, '# local\nexport SVC_MODE="standalone"\nSVC_DB_URL=\n');
      expect(runMode.readSetting('SVC_MODE', {}, dotenv)).toBe('standalone');
      expect(runMode.readSetting('SVC_MODE', { SVC_MODE: 'services' }, dotenv)).toBe('services');
      expect(runMode.readSetting('SVC_DB_URL', {}, dotenv)).toBeUndefined();
      expect(runMode.readSetting('SVC_MODE', {}, join(dir, 'absent'))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
