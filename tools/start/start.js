#!/usr/bin/env node
// `npm start`: installs dependencies if missing, then picks the run mode. Services mode: creates and
// migrates the database, then runs the gateway (port 8000) and every worker as separate processes in
// this terminal with prefixed logs. Standalone mode: one process with the embedded database and
// in-process queues. Both build the web dashboards first when missing or older than their sources.
// Ctrl-C stops everything.
const { spawn, spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const path = require('node:path');
const { chooseMode, readSetting } = require('./run-mode');

const root = path.join(__dirname, '..', '..');
const register = path.join(root, 'tools', 'register.js');

const APPS = [
  { name: 'gateway-api', color: 36 },
  { name: 'auth-service', color: 35, metricsPort: 9100 },
  { name: 'ingestion-worker', color: 32, metricsPort: 9101 },
  { name: 'embedding-worker', color: 33, metricsPort: 9102 },
  { name: 'prediction-worker', color: 34, metricsPort: 9103 },
  { name: 'evaluation-worker', color: 31, metricsPort: 9104 },
  { name: 'dataset-exporter', color: 37, metricsPort: 9105 },
];
const MAX_RESTARTS = 5;

function log(message) {
  process.stdout.write(`[start] ${message}\n`);
}

function ensureDependencies() {
  if (existsSync(path.join(root, 'node_modules', '.package-lock.json'))) return;
  log('installing dependencies (npm ci)');
  const result = spawnSync('npm', ['ci'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function migrate() {
  log('creating the database if missing and applying migrations');
  const result = spawnSync(process.execPath, ['-r', register, path.join(root, 'tools', 'db', 'migrate.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    log('migration failed: is PostgreSQL running? (see README: docker compose up -d postgres rabbitmq)');
    process.exit(result.status ?? 1);
  }
}

function buildDashboards() {
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'tools', 'web', 'build-web.js'), '--if-stale'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  // The API works without the dashboards; the gateway then answers / with how to build them.
  if (result.status !== 0) log('the web dashboards did not build; the API starts without them');
}

function prefixLines(stream, label, color, out) {
  let buffer = '';
  stream.on('data', (chunk) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) out.write(`\x1b[${color}m[${label}]\x1b[0m ${line}\n`);
  });
  stream.on('end', () => {
    if (buffer) out.write(`\x1b[${color}m[${label}]\x1b[0m ${buffer}\n`);
  });
}

const children = new Map();
let stopping = false;

function startApp(app, restarts = 0) {
  const env = { ...process.env };
  if (app.metricsPort !== undefined && env.SVC_METRICS_PORT === undefined)
    env.SVC_METRICS_PORT = String(app.metricsPort);
  if (app.metricsPort !== undefined) delete env.SVC_PORT;
  const child = spawn(
    process.execPath,
    ['-r', register, app.entry ?? path.join(root, 'apps', app.name, 'src', 'main.ts')],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  prefixLines(child.stdout, app.name, app.color, process.stdout);
  prefixLines(child.stderr, app.name, app.color, process.stderr);
  children.set(app.name, child);
  const startedAt = Date.now();
  child.on('exit', (code, signal) => {
    children.delete(app.name);
    if (stopping) {
      if (children.size === 0) process.exit(0);
      return;
    }
    log(`${app.name} exited (${signal ?? `code ${code}`})`);
    // A process that ran for a minute gets a fresh restart budget.
    const budget = Date.now() - startedAt > 60_000 ? 0 : restarts + 1;
    if (code === 78) {
      log(
        'cannot start as configured (settings, or a data folder in use): see the line above; fix it and start again',
      );
      stopAll(78);
    } else if (budget > MAX_RESTARTS) {
      log(`${app.name} keeps failing; stopping everything`);
      stopAll(1);
    } else {
      setTimeout(() => startApp(app, budget), 2000);
    }
  });
}

function stopAll(exitCode) {
  if (stopping) return;
  stopping = true;
  log('stopping all processes');
  for (const child of children.values()) child.kill('SIGTERM');
  setTimeout(() => process.exit(exitCode), 15_000).unref();
  if (children.size === 0) process.exit(exitCode);
}

/** A variable's value from the environment, else from the project's .env file, else undefined. */
function setting(name) {
  return readSetting(name, process.env, path.join(root, '.env'));
}

function standaloneDataDir() {
  const dir = setting('SVC_STANDALONE_DATA_DIR') ?? 'var/standalone';
  return path.resolve(root, dir);
}

function startStandalone() {
  const app = { name: 'standalone', color: 36, entry: path.join(root, 'tools', 'standalone', 'main.ts') };
  process.env.SVC_MODE = 'standalone';
  startApp(app);
}

async function main() {
  // The mode comes first, so the first line says which one runs and where its data lives.
  const choice = await chooseMode({ setting });
  if (choice.error) {
    log(choice.error);
    process.exit(78);
  }
  const { mode, why } = choice;
  if (mode === 'standalone')
    log(`mode: standalone (${why}); data in ${standaloneDataDir()} (delete it to start afresh)`);
  else log(`mode: services (${why}); data in PostgreSQL and RabbitMQ, files in SVC_ARTIFACTS_DIR`);
  ensureDependencies();
  buildDashboards();
  if (mode === 'standalone') {
    startStandalone();
    log(
      `gateway on http://127.0.0.1:${process.env.SVC_PORT || 8000} (dashboards at /, docs at /docs) once the embedded database is open`,
    );
  } else {
    migrate();
    for (const app of APPS) startApp(app);
    log(
      'gateway on http://127.0.0.1:8000 (dashboards at /, docs at /docs); workers expose /metrics on ports 9100-9105',
    );
  }
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));
}

void main();
