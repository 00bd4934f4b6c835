import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from './test-environment';

/** Runs `npx svc ...` as a user would (the linked bin, node_modules/.bin/svc), with its own config file. */
export function runSvc(
  args: string[],
  config: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(join(WORKSPACE_ROOT, 'node_modules', '.bin', 'svc'), [...args, '--config', config], {
      cwd: WORKSPACE_ROOT,
      env: { PATH: process.env['PATH'] ?? '', HOME: tmpdir() },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
