import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const LIB = join(__dirname, '..');
const ROOT = join(LIB, '..', '..');

/** Other teams use the client as a package: it builds on its own and `npm pack` ships the build. */
describe('@svc/client as a package', () => {
  afterAll(() => rmSync(join(LIB, 'dist'), { recursive: true, force: true }));

  it('builds with its own tsconfig, loads without the workspace, and packs dist and package.json', () => {
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(LIB, 'tsconfig.build.json')],
      {
        cwd: LIB,
        stdio: 'pipe',
      },
    );
    // The built module needs nothing of the monorepo (no @svc/* import survives the build).
    const loaded = execFileSync(
      process.execPath,
      [
        '-e',
        `const c = require(${JSON.stringify(join(LIB, 'dist/index.js'))}); process.stdout.write(typeof c.SvcClient)`,
      ],
      { cwd: '/', encoding: 'utf8' },
    );
    expect(loaded).toBe('function');
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: LIB,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as { name: string; files: { path: string }[] }[];
    expect(packed[0]!.name).toBe('@svc/client');
    expect(packed[0]!.files.map((f) => f.path).sort()).toEqual([
      'dist/generated/openapi.d.ts',
      'dist/generated/openapi.js',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/svc-client.d.ts',
      'dist/svc-client.js',
      'package.json',
    ]);
  });
});
