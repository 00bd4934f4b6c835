import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';

const run = promisify(execFile);
const BIN = process.env['SVC_TEST_PG_BIN'] ?? '/usr/lib/postgresql/15/bin';
/** PostgreSQL refuses to run as root; as root the cluster belongs to this account instead. */
const CLUSTER_USER = 'postgres';

/**
 * A PostgreSQL cluster of the test's own (initdb into a temporary folder, trust authentication, a
 * free port on 127.0.0.1), so that a test can stop and start the database under running apps without
 * touching the machine's server.
 */
export class TempPostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  static async create(): Promise<TempPostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
    const cluster = new TempPostgres(dir, await freePort());
    try {
      if (process.getuid?.() === 0) {
        const { stdout } = await run('id', ['-u', CLUSTER_USER]);
        const { stdout: gid } = await run('id', ['-g', CLUSTER_USER]);
        chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
      }
      await cluster.pg('initdb', [
        '-D',
        cluster.dataDir,
        '-U',
        'postgres',
        '-A',
        'trust',
        '--no-sync',
        '-E',
        'UTF8',
      ]);
      await cluster.start();
      return cluster;
    } catch (error) {
      await cluster.dispose();
      throw error;
    }
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** A connection URL for one database of this cluster. */
  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    await this.pg('pg_ctl', [
      'start',
      '-w',
      '-D',
      this.dataDir,
      '-l',
      join(this.dir, 'server.log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    ]);
  }

  /** `pg_ctl stop -m fast`: open sessions are terminated, as in a restart or a failover. */
  async stop(): Promise<void> {
    await this.pg('pg_ctl', ['stop', '-w', '-m', 'fast', '-D', this.dataDir]);
  }

  /** Stops the server if it runs and removes the folder; safe to call after a failed start. */
  async dispose(): Promise<void> {
    await this.stop().catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async pg(program: string, args: string[]): Promise<void> {
    const path = join(BIN, program);
    if (process.getuid?.() === 0)
      await run('runuser', ['-u', CLUSTER_USER, '--', path, ...args], { cwd: this.dir });
    else await run(path, args, { cwd: this.dir });
  }
}
