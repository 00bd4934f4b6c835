#!/usr/bin/env node
// `npm run build:web`: builds the dashboards (apps/web) into dist/web with Vite.
// `--if-stale` builds only when dist/web is missing or older than any source of the web app, which is
// what `npm start` and the browser tests use so that a fresh clone serves the dashboards.
const { existsSync, readdirSync, statSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const webRoot = path.join(root, 'apps', 'web');
const configFile = path.join(webRoot, 'vite.config.mjs');
const builtIndex = path.join(root, 'dist', 'web', 'index.html');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function isWebBuildStale() {
  if (!existsSync(builtIndex)) return true;
  const sources = Math.max(
    newestSource(path.join(webRoot, 'src')),
    statSync(path.join(webRoot, 'index.html')).mtimeMs,
    statSync(configFile).mtimeMs,
  );
  return sources > statSync(builtIndex).mtimeMs;
}

async function buildWeb() {
  // Under Jest NODE_ENV is 'test', which would bundle React's development build.
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  await build({ configFile, logLevel: 'warn' });
}

module.exports = { isWebBuildStale, buildWeb };

if (require.main === module) {
  const ifStale = process.argv.includes('--if-stale');
  if (ifStale && !isWebBuildStale()) {
    process.stdout.write('[build-web] dist/web is up to date\n');
  } else {
    const started = Date.now();
    buildWeb().then(
      () => process.stdout.write(`[build-web] built dist/web in ${Date.now() - started} ms\n`),
      (error) => {
        process.stderr.write(
          `[build-web] failed: ${error instanceof Error ? error.message : String(error)}\n`,
        );
        process.exit(1);
      },
    );
  }
}
