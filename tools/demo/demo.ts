import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { convertTsvToGaf } from '../data/tsv-to-gaf';
import { Api, DemoError, ProgressBar, ready, runJob, sleep } from './demo-client';

/**
 * `npm run demo`: seeds a temporal holdout (GO release, annotations at t0 and t1, sequences, a k-mer
 * embedding), predicts GO terms for every protein, builds the NK/LK evaluation set from t0 -> t1 and
 * runs the CAFA evaluation, all as jobs through the public API and the queues, then prints the Fmax
 * table and where to look. The files are uploaded (POST /v1/sources), so the service needs no access
 * to the data folder.
 *
 * It uses the service answering at SVC_DEMO_URL (default http://127.0.0.1:8000) when one is ready;
 * otherwise it starts the standalone mode itself, in its own data folder (var/demo, emptied first),
 * and keeps it running afterwards so the printed links work (Ctrl-C stops it; --stop stops at once).
 *
 * Settings (environment):
 *   SVC_DEMO_DATA       the shared data folder (default ../shared/data beside the repository)
 *   SVC_DEMO_HOLDOUT    mini (default) or tiny: the holdout folder inside it
 *   SVC_DEMO_URL        the service to use (default http://127.0.0.1:8000)
 *   SVC_DEMO_EMAIL, SVC_DEMO_PASSWORD
 *                       an operator or admin account of that service (default: the bootstrap
 *                       administrator settings); or --create-operator to create one with the
 *                       user tool (`npm run user:add`), which writes to the database this
 *                       checkout's configuration names: the services mode's
 *   SVC_DEMO_DATA_DIR   the standalone data folder when the demo starts the service (default var/demo)
 */

const ROOT = resolve(__dirname, '..', '..');
const REGISTER = join(ROOT, 'tools', 'register.js');
const RELEASE = 'go-subset.2022-07-01.obo';
const T0 = 'annotations.t0.gene2go-2022-09-12.tsv';
const T1 = 'annotations.t1.gene2go-2024-09-20.tsv';
const ASPECTS = ['BPO', 'MFO', 'CCO'] as const;

/**
 * The holdout's GO subset under a data-version of its own (`releases/2022-07-01/mini-subset`): the
 * shared subset carries the full release's, and a release is its content, so loading it under that
 * name would block the real release on the same service (`ontology_version_conflict`).
 */
export function subsetRelease(source: string, target: string, holdout: string): string {
  const text = readFileSync(source, 'utf8').replace(
    /^data-version:[ \t]*(\S+)[ \t]*$/m,
    (_, version: string) => `data-version: ${version}/${holdout}-subset`,
  );
  writeFileSync(target, text);
  return target;
}

interface Service {
  api: Api;
  startedHere: ChildProcess | null;
  dataDir: string | null;
}

/** Starts the standalone mode in its own folder and waits until the gateway is ready. */
async function startStandalone(url: URL, email: string, password: string): Promise<Service> {
  const dataDir = resolve(ROOT, process.env['SVC_DEMO_DATA_DIR'] ?? 'var/demo');
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const log = openSync(join(dataDir, 'service.log'), 'a');
  process.stdout.write(`no service at ${url.origin}: starting the standalone mode (data in ${dataDir})\n`);
  const child = spawn(process.execPath, ['-r', REGISTER, join(ROOT, 'tools', 'standalone', 'main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      SVC_MODE: 'standalone',
      SVC_STANDALONE_DATA_DIR: dataDir,
      SVC_HOST: url.hostname,
      SVC_PORT: url.port || '80',
      SVC_BOOTSTRAP_ADMIN_EMAIL: email,
      SVC_BOOTSTRAP_ADMIN_PASSWORD: password,
    },
    stdio: ['ignore', log, log],
  });
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  const deadline = Date.now() + 180_000;
  while (!(await ready(url.origin))) {
    if (exited !== undefined)
      throw new DemoError(`the standalone mode exited (${exited}); see ${join(dataDir, 'service.log')}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new DemoError(`the standalone mode was not ready in 180 s; see ${join(dataDir, 'service.log')}`);
    }
    await sleep(250);
  }
  return { api: new Api(url.origin), startedHere: child, dataDir };
}

/** Creates an operator with the user tool (services mode, where the tool reaches the database). */
function addOperator(email: string, password: string): void {
  const result = spawnSync(
    process.execPath,
    ['-r', REGISTER, join(ROOT, 'tools', 'users', 'add-user.ts'), '--email', email, '--role', 'operator'],
    { cwd: ROOT, input: `${password}\n`, encoding: 'utf8' },
  );
  if (result.status !== 0)
    throw new DemoError(`the user tool could not create ${email}: ${result.stderr || result.stdout}`);
}

async function signIn(
  service: Service,
  email: string | null,
  password: string | null,
  createOperator: boolean,
): Promise<void> {
  const api = service.api;
  if (email !== null && password !== null) {
    const login = await api.request('POST', '/v1/auth/login', { email, password });
    if (login.status !== 200)
      throw new DemoError(`signing in as ${email} failed (${login.status}): ${JSON.stringify(login.body)}`);
    const cookie = login.headers.get('set-cookie');
    api.cookie = cookie === null ? null : (cookie.split(';')[0] ?? null);
  }
  const probe = await api.request('GET', '/v1/workers/status');
  if (probe.status !== 401 && probe.status !== 403) return;
  if (email !== null) throw new DemoError(`${email} is not an operator or administrator`);
  if (!createOperator)
    throw new DemoError(
      'the service requires an operator account: set SVC_DEMO_EMAIL and SVC_DEMO_PASSWORD, or pass ' +
        '--create-operator to create one with the user tool (services mode: it writes to the database ' +
        "of this checkout's configuration)",
    );
  const created = `demo-${randomBytes(4).toString('hex')}@example.org`;
  const secret = randomBytes(18).toString('base64url');
  process.stdout.write(`creating the operator ${created} with the user tool\n`);
  addOperator(created, secret);
  await signIn(service, created, secret, false);
}

type Metrics = Record<string, Record<string, Record<string, number>>>;

export function formatFmaxTable(metrics: Metrics): string {
  const cell = (value: number | undefined): string =>
    (value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(3)).padStart(7);
  const lines = [`${'Fmax'.padEnd(6)}${ASPECTS.map((a) => a.padStart(7)).join('')}`];
  for (const category of ['NK', 'LK'])
    lines.push(`${category.padEnd(6)}${ASPECTS.map((a) => cell(metrics[category]?.[a]?.['fmax'])).join('')}`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const args = new Set(process.argv.slice(2));
  const dataRoot = resolve(ROOT, process.env['SVC_DEMO_DATA'] ?? '../shared/data');
  const holdout = process.env['SVC_DEMO_HOLDOUT'] ?? 'mini';
  const data = join(dataRoot, holdout);
  for (const file of [RELEASE, T0, T1, 'sequences.fasta'])
    if (!existsSync(join(data, file)))
      throw new DemoError(`${join(data, file)} is missing (set SVC_DEMO_DATA to the shared data folder)`);
  const url = new URL(process.env['SVC_DEMO_URL'] ?? 'http://127.0.0.1:8000');

  let email = process.env['SVC_DEMO_EMAIL'] ?? process.env['SVC_BOOTSTRAP_ADMIN_EMAIL'] ?? null;
  let password = process.env['SVC_DEMO_PASSWORD'] ?? process.env['SVC_BOOTSTRAP_ADMIN_PASSWORD'] ?? null;
  let service: Service;
  if (await ready(url.origin)) {
    process.stdout.write(`using the service at ${url.origin}\n`);
    service = { api: new Api(url.origin), startedHere: null, dataDir: null };
  } else {
    email = 'demo-admin@example.org';
    password = randomBytes(18).toString('base64url');
    service = await startStandalone(url, email, password);
  }
  const stopService = async (): Promise<void> => {
    const child = service.startedHere;
    if (child === null || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  process.once('SIGINT', () => void stopService().then(() => process.exit(130)));

  try {
    await signIn(service, email, password, args.has('--create-operator'));
    const api = service.api;
    const work = join(service.dataDir ?? resolve(ROOT, 'var', 'demo-input'), 'input');
    mkdirSync(work, { recursive: true });
    const run = randomBytes(3).toString('hex');
    const bar = new ProgressBar(9);
    process.stdout.write(`seeding the ${holdout} holdout from ${data}\n`);

    const snapshot = await runJob(api, bar, 1, `GO release ${RELEASE}`, '/v1/annotations/snapshots/load', {
      obo_url: await api.upload(subsetRelease(join(data, RELEASE), join(work, RELEASE), holdout)),
    });
    const snapshotId = snapshot.result!['ontology_snapshot_id'] as string;
    const loadSet = async (step: number, file: string, label: string): Promise<string> => {
      const gaf = join(work, `${file}.gaf`);
      await convertTsvToGaf(join(data, file), gaf);
      const job = await runJob(api, bar, step, label, '/v1/annotations/sets/load-goa', {
        ontology_snapshot_id: snapshotId,
        gaf_url: await api.upload(gaf),
        source_version: `${file.replace(/^annotations\.|\.tsv$/g, '')}-demo-${run}`,
        // The t1 ground truth against the t0 release drops the terms created since (the holdout
        // protocol), a share above the default tolerance.
        ...(file === T1 ? { max_unresolved_ratio: 1 } : {}),
      });
      return job.result!['annotation_set_id'] as string;
    };
    const t0 = await loadSet(2, T0, 'annotations t0 (2022-09-12)');
    const t1 = await loadSet(3, T1, 'annotations t1 (2024-09-20)');
    await runJob(api, bar, 4, 'proteins and sequences', '/v1/proteins/insert', {
      source_url: await api.upload(join(data, 'sequences.fasta')),
    });
    const config = await api.ok<{ id: string }>('POST', '/v1/embeddings/configs', {
      model_name: 'kmer-v1',
      model_backend: 'kmer',
    });
    await runJob(api, bar, 5, 'k-mer embeddings', '/v1/embeddings/compute', {
      embedding_config_id: config.id,
    });
    const predicted = await runJob(api, bar, 6, 'GO term predictions', '/v1/embeddings/predict', {
      embedding_config_id: config.id,
      annotation_set_id: t0,
      ontology_snapshot_id: snapshotId,
      limit_per_entry: 5,
      compute_alignments: false,
    });
    const sets = await api.ok<{ id: string; job_id: string }[]>('GET', '/v1/embeddings/prediction-sets');
    const predictionSetId = sets.find((s) => s.job_id === predicted.id)?.id;
    if (predictionSetId === undefined)
      throw new DemoError('the prediction set of the prediction job is missing');
    const generated = await runJob(
      api,
      bar,
      7,
      'NK/LK evaluation set',
      '/v1/annotations/evaluation-sets/generate',
      {
        old_annotation_set_id: t0,
        new_annotation_set_id: t1,
      },
    );
    const evaluationSetId = generated.result!['evaluation_set_id'] as string;
    // The `default` scoring preset is the prediction's own score: the numbers are the prediction's, and
    // the result has a stage, so it appears in the benchmark matrix.
    const presets = await api.ok<{ presets: { name: string; id: string }[] }>(
      'POST',
      '/v1/scoring/configs/presets',
    );
    const scoring = presets.presets.find((p) => p.name === 'default');
    if (scoring === undefined) throw new DemoError('the default scoring preset is missing');
    const evaluated = await runJob(
      api,
      bar,
      8,
      'CAFA evaluation',
      `/v1/annotations/evaluation-sets/${evaluationSetId}/run`,
      { prediction_set_id: predictionSetId, scoring_config_id: scoring.id },
    );
    // Published, so the links below open for anyone who follows them, signed in or not.
    await api.ok('PATCH', `/v1/embeddings/prediction-sets/${predictionSetId}/visibility`, {
      visibility: 'public',
    });
    const resultId = evaluated.result!['evaluation_result_id'] as string;
    const results = await api.ok<{ id: string; metrics: Metrics }[]>(
      'GET',
      `/v1/annotations/evaluation-sets/${evaluationSetId}/results`,
    );
    const result = results.find((r) => r.id === resultId);
    if (result === undefined) throw new DemoError('the evaluation result is missing');
    bar.done(9, 'results', 0);

    const base = api.base;
    process.stdout.write(`\n${formatFmaxTable(result.metrics)}\n\n`);
    process.stdout.write(
      [
        `prediction set      ${base}/#/prediction-sets/${predictionSetId}`,
        `evaluation          ${base}/#/evaluation-sets/${evaluationSetId}`,
        `benchmark matrix    ${base}/#/benchmark`,
        `API docs            ${base}/docs`,
        '',
      ].join('\n'),
    );
    if (service.startedHere !== null) {
      process.stdout.write(
        `signed in as ${email} (password: ${password})\n` +
          (args.has('--stop')
            ? 'stopping the standalone mode (--stop)\n'
            : `the standalone mode keeps running with its data in ${service.dataDir}; Ctrl-C stops it\n`),
      );
      if (args.has('--stop')) await stopService();
      else await new Promise<never>(() => undefined);
    }
  } catch (error) {
    await stopService();
    throw error;
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `\ndemo failed: ${error instanceof DemoError ? error.message : String((error as Error).stack ?? error)}\n`,
    );
    process.exit(1);
  });
}
