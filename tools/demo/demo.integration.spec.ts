import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@svc/testing';

// `npm run demo` end to end on the tiny holdout: no service answers on the chosen port, so the demo
// starts the standalone mode itself, seeds through the API, predicts, evaluates and prints the table
// and links to the dashboards, which a guest can follow while the demo keeps the service up.

const ROOT = resolve(__dirname, '../..');

/**
 * Runs the demo as a user would; once it says the standalone mode keeps running, `whileUp` looks at
 * the service it left up (as a guest would), then Ctrl-C stops both.
 */
function runDemo(
  env: Record<string, string>,
  whileUp: (printed: string) => Promise<void>,
): Promise<{ code: number | null; output: string; up: boolean; failure: unknown }> {
  return new Promise((resolvePromise) => {
    const child = spawn(
      process.execPath,
      ['-r', join(ROOT, 'tools/register.js'), join(ROOT, 'tools/demo/demo.ts')],
      {
        cwd: ROOT,
        env: { PATH: process.env['PATH'] ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    let up = false;
    let failure: unknown = null;
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (!up && output.includes('the standalone mode keeps running')) {
        up = true;
        whileUp(output)
          .catch((error: unknown) => (failure = error))
          .finally(() => child.kill('SIGINT'));
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => resolvePromise({ code, output, up, failure }));
  });
}

describe('npm run demo', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('seeds the tiny holdout, predicts, evaluates and prints the NK/LK Fmax table and the links', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // What a guest who follows the printed links gets: the set, its evaluation, a matrix with a cell.
    const guest: { set?: number; evaluation?: number; cells?: number } = {};
    const { code, output, up, failure } = await runDemo(
      {
        SVC_DEMO_HOLDOUT: 'tiny',
        SVC_DEMO_URL: base,
        SVC_DEMO_DATA_DIR: join(dir, 'standalone'),
      },
      async (printed) => {
        const set = /prediction set\s+\S+\/#\/prediction-sets\/([0-9a-f-]{36})/.exec(printed)?.[1];
        const evaluation = /evaluation\s+\S+\/#\/evaluation-sets\/([0-9a-f-]{36})/.exec(printed)?.[1];
        guest.set = (await fetch(`${base}/v1/embeddings/prediction-sets/${set}`)).status;
        guest.evaluation = (
          await fetch(`${base}/v1/annotations/evaluation-sets/${evaluation}/results`)
        ).status;
        const matrix = (await (await fetch(`${base}/v1/benchmark/matrix`)).json()) as { cells: unknown[] };
        guest.cells = matrix.cells.length;
      },
    );
    expect({ up, failure, tail: output.slice(-3000) }).toMatchObject({ up: true, failure: null });
    // Stopped by Ctrl-C once looked at.
    expect(code).toBe(130);
    expect(guest).toEqual({ set: 200, evaluation: 200, cells: 1 });
    expect(output).toContain(`no service at http://127.0.0.1:${port}: starting the standalone mode`);
    expect(output).toMatch(/step 8\/9 done: CAFA evaluation/);

    const lines = output.split('\n');
    const header = lines.findIndex((l) => /^Fmax\s+BPO\s+MFO\s+CCO\s*$/.test(l));
    expect(header).toBeGreaterThanOrEqual(0);
    const row = (name: string): (number | null)[] => {
      const line = lines.slice(header + 1, header + 3).find((l) => l.startsWith(name));
      expect(line).toBeDefined();
      return line!
        .trim()
        .split(/\s+/)
        .slice(1)
        .map((cell) => (cell === '-' ? null : Number(cell)));
    };
    const nk = row('NK');
    const lk = row('LK');
    expect(nk).toHaveLength(3);
    expect(lk).toHaveLength(3);
    const numbers = [...nk, ...lk].filter((v): v is number => v !== null);
    // The tiny holdout has NK targets in every aspect.
    expect(nk.every((v) => v !== null)).toBe(true);
    for (const value of numbers) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }
    expect(numbers.some((v) => v > 0)).toBe(true);

    // Dashboard pages, not JSON.
    expect(output).toMatch(new RegExp(`prediction set\\s+${base}/#/prediction-sets/[0-9a-f-]{36}`));
    expect(output).toMatch(new RegExp(`evaluation\\s+${base}/#/evaluation-sets/[0-9a-f-]{36}`));
    expect(output).toContain(`benchmark matrix    ${base}/#/benchmark`);
    expect(output).toContain(`${base}/docs`);
  }, 300_000);
});
