import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@svc/testing';

// `npm run demo` end to end on the tiny holdout: no service answers on the chosen port, so the demo
// starts the standalone mode itself, seeds through the API, predicts, evaluates and prints the table.

const ROOT = resolve(__dirname, '../..');

function runDemo(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(
      process.execPath,
      ['-r', join(ROOT, 'tools/register.js'), join(ROOT, 'tools/demo/demo.ts'), '--stop'],
      {
        cwd: ROOT,
        env: { PATH: process.env['PATH'] ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolvePromise({ code, output }));
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
    const { code, output } = await runDemo({
      SVC_DEMO_HOLDOUT: 'tiny',
      SVC_DEMO_URL: `http://127.0.0.1:${port}`,
      SVC_DEMO_DATA_DIR: join(dir, 'standalone'),
    });
    expect({ code, tail: output.slice(-3000) }).toMatchObject({ code: 0 });
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

    const base = `http://127.0.0.1:${port}`;
    expect(output).toMatch(
      new RegExp(`prediction set\\s+${base}/v1/embeddings/prediction-sets/[0-9a-f-]{36}`),
    );
    expect(output).toMatch(
      new RegExp(`evaluation results\\s+${base}/v1/annotations/evaluation-sets/[0-9a-f-]{36}/results`),
    );
    expect(output).toContain(`${base}/v1/benchmark/matrix`);
    expect(output).toContain(`${base}/docs`);
  }, 300_000);
});
