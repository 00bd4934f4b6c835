import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Browser, BrowserContext, chromium, Locator, Page } from 'playwright-core';
import {
  AppProcess,
  createSuiteWorld,
  embedProteinsWithKmer,
  freePort,
  HttpClient,
  HttpResult,
  loadTsvAnnotations,
  spawnApp,
  SuiteWorld,
  waitFor,
  waitForJobEnd,
} from '@svc/testing';

const ROOT = resolve(__dirname, '../../..');
const DATA = resolve(ROOT, '../shared/data');
const ARTIFACTS = join(ROOT, 'var', 'test-artifacts', 'web');
const ADMIN = { email: 'admin@web.test', password: `admin-${randomUUID()}` };
// Six processes start at once; on a busy two-core machine that can take well over the usual 30 s.
const STARTUP_MS = 120_000;
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Job {
  id: string;
  status: string;
  result: Record<string, unknown> | null;
  error_message: string | null;
}

function cookieOf(res: HttpResult): string {
  const match = /svc_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '');
  if (match === null) throw new Error('no session cookie');
  return `svc_session=${match[1]}`;
}

/** Saves a full-page screenshot as a test artifact and checks that it is a non-empty PNG. */
async function screenshot(page: Page, name: string): Promise<void> {
  const file = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(statSync(file).size).toBeGreaterThan(5_000);
}

/**
 * Polls `probe` until it returns `expected` (pages render asynchronously), then asserts on the last
 * value so that a failure shows what the page had.
 */
async function settle<T>(probe: () => Promise<T>, expected: T): Promise<void> {
  let last: T | undefined;
  await waitFor(
    async () => {
      last = await probe();
      return last === expected ? true : undefined;
    },
    { timeoutMs: 15_000 },
  ).catch(() => undefined);
  expect(last).toEqual(expected);
}

const count = (locator: Locator) => () => locator.count();

describe('web dashboards in headless Chromium against the real stack', () => {
  let world: SuiteWorld;
  let apps: AppProcess[] = [];
  let base: string;
  let api: HttpClient;
  let browser: Browser;
  let dir: string;
  let scoringName: string;
  let snapshotId: string;
  const researcher = { email: `reader-${randomUUID().slice(0, 8)}@web.test`, password: `pw-${randomUUID()}` };

  const runJob = async (path: string, body: unknown): Promise<Job> => {
    const queued = await api.post<{ id: string }>(path, body);
    expect(queued.status).toBe(201);
    const job = await waitForJobEnd<Job>(api, queued.body.id, 120_000);
    expect(job.error_message).toBeNull();
    expect(job.status).toBe('SUCCEEDED');
    return job;
  };

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium`);
    const build = spawnSync(process.execPath, [join(ROOT, 'tools/web/build-web.js'), '--if-stale'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect({ status: build.status, stderr: build.stderr }).toEqual({ status: 0, stderr: '' });
    mkdirSync(ARTIFACTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'svc-web-'));
    world = await createSuiteWorld('web');
    const port = await freePort();
    const env = {
      ...world.env,
      SVC_AUTHN_REQUIRED: 'true',
      SVC_BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      SVC_BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    };
    const auth = await spawnApp('auth-service', env);
    apps.push(auth);
    await auth.waitForLog('auth-service ready', STARTUP_MS);
    const rest = await Promise.all([
      spawnApp('gateway-api', { ...env, SVC_PORT: String(port) }),
      ...['ingestion-worker', 'embedding-worker', 'prediction-worker', 'evaluation-worker'].map((name) =>
        spawnApp(name, env),
      ),
    ]);
    apps = [...apps, ...rest];
    const [gateway, ...workers] = rest;
    await gateway.waitForLog('gateway listening', STARTUP_MS);
    await Promise.all(workers.map((w) => w.waitForLog('worker started', STARTUP_MS)));
    base = `http://127.0.0.1:${port}`;
    const anonymous = new HttpClient(base);
    await waitFor(async () => ((await anonymous.get('/health/ready')).status === 200 ? true : undefined), {
      what: 'the gateway to reach the broker',
    });
    api = anonymous.withHeaders({ cookie: cookieOf(await anonymous.post('/v1/auth/login', ADMIN)) });

    // Reference data as an operator loads it: ontology, the t0 and t1 annotation sets, proteins and
    // their embeddings, a prediction over all of them, and one evaluation with a scoring stage so
    // that the benchmark matrix has a cell.
    const snapshot = await runJob('/v1/annotations/snapshots/load', {
      obo_url: join(ROOT, 'fixtures/go-subset.2022-07-01.obo'),
    });
    snapshotId = snapshot.result!['ontology_snapshot_id'] as string;
    const load = (file: string): Promise<string> =>
      loadTsvAnnotations(api, {
        snapshotId,
        tsv: join(DATA, 'tiny', file),
        gaf: join(dir, `${file}.gaf`),
        sourceVersion: file.replace(/\.tsv$/, ''),
        tolerateUnresolved: file.includes('.t1.'),
      });
    const t0 = await load('annotations.t0.gene2go-2022-09-12.tsv');
    const t1 = await load('annotations.t1.gene2go-2024-09-20.tsv');
    const kmerConfigId = await embedProteinsWithKmer(api, join(DATA, 'tiny/sequences.fasta'));
    const predicted = await runJob('/v1/embeddings/predict', {
      embedding_config_id: kmerConfigId,
      annotation_set_id: t0,
      ontology_snapshot_id: snapshotId,
      limit_per_entry: 5,
      compute_alignments: false,
    });
    const sets = await api.get<{ id: string; job_id: string }[]>('/v1/embeddings/prediction-sets');
    const predictionSetId = sets.body.find((s) => s.job_id === predicted.id)!.id;
    const evaluation = await runJob('/v1/annotations/evaluation-sets/generate', {
      old_annotation_set_id: t0,
      new_annotation_set_id: t1,
    });
    scoringName = `similarity-${randomUUID().slice(0, 6)}`;
    const scoring = await api.post<{ id: string }>('/v1/scoring/configs', {
      name: scoringName,
      weights: { embedding_similarity: 1 },
    });
    await runJob(`/v1/annotations/evaluation-sets/${evaluation.result!['evaluation_set_id'] as string}/run`, {
      prediction_set_id: predictionSetId,
      scoring_config_id: scoring.body.id,
    });

    // A researcher account, approved by the admin, for the browser to sign in with.
    const signup = await anonymous.post<{ id: string }>('/v1/auth/signup', {
      email: researcher.email,
      username: `reader_${randomUUID().slice(0, 6)}`,
      display_name: 'Reader',
      password: researcher.password,
      intended_use: 'dashboard tests',
    });
    expect(signup.status).toBe(201);
    expect((await api.post(`/v1/admin/users/${signup.body.id}/approve`, { role: 'researcher' })).status).toBe(
      200,
    );

    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 480_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all(apps.map((a) => a.stop()));
    await world?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const openPage = async (
    width = 1280,
  ): Promise<{ context: BrowserContext; page: Page; errors: string[] }> => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    return { context, page, errors };
  };

  it('a researcher signs in, annotates a FASTA file, follows the jobs to SUCCEEDED and opens the predictions and the benchmark', async () => {
    const { context, page, errors } = await openPage();
    try {
      await page.goto(`${base}/`);
      await page.getByRole('link', { name: 'Sign in', exact: true }).click();
      await page.getByLabel('Email').fill(researcher.email);
      await page.getByLabel('Password').fill(researcher.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      expect(await page.locator('.account').textContent()).toContain('Reader');

      await page
        .getByRole('navigation', { name: 'Dashboards' })
        .getByRole('link', { name: 'Annotate', exact: true })
        .click();
      await page.getByRole('heading', { level: 1, name: 'One-click annotation' }).waitFor();
      const fasta = readFileSync(join(DATA, 'tiny/sequences.fasta'), 'utf8')
        .split('>')
        .slice(5, 7)
        .map((record) => `>${record}`)
        .join('');
      const accessions = [...fasta.matchAll(/^>(\S+)/gm)].map((m) => m[1]!);
      await page.getByLabel('Name', { exact: true }).fill('two proteins');
      await page.getByLabel('FASTA file').setInputFiles({
        name: 'two.fasta',
        mimeType: 'text/plain',
        buffer: Buffer.from(fasta),
      });
      expect(await page.getByLabel(/Keep the query set in my history/).isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Annotate', exact: true }).click();
      // The default prediction reads no embedding: the run is its prediction job alone.
      await page.getByRole('progressbar', { name: 'Prediction progress' }).waitFor();
      await screenshot(page, '01-annotate-progress');
      expect(await page.getByRole('progressbar', { name: 'Embedding progress' }).count()).toBe(0);

      const succeeded = (label: string) =>
        page
          .locator('.progress[data-status="SUCCEEDED"]')
          .filter({ has: page.getByRole('progressbar', { name: label }) });
      await succeeded('Prediction progress').waitFor({ timeout: 120_000 });
      expect(
        await page.getByRole('progressbar', { name: 'Prediction progress' }).getAttribute('aria-valuetext'),
      ).toBe('SUCCEEDED: 2 of 2 (100%)');
      await screenshot(page, '02-annotate-succeeded');
      // The run has a permalink, named by its prediction job, that shows it by name after a reload.
      const runId = /#\/annotate\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
      expect(runId).toBeDefined();
      await page.reload();
      await page.getByRole('heading', { level: 2, name: 'Progress of two proteins' }).waitFor();
      await succeeded('Prediction progress').waitFor({ timeout: 30_000 });
      const predictionJob = await page
        .getByRole('region', { name: 'Progress of two proteins' })
        .getByRole('link', { name: /^job / })
        .getAttribute('href');
      expect(predictionJob).toBe(`#/jobs/${runId}`);

      await page.getByRole('link', { name: 'Open the predictions' }).click();
      // The set is named by its query set and the settings that tell runs apart; no embedding is named.
      await page
        .getByRole('heading', {
          level: 1,
          name: /^two proteins · DIAMOND, \S+ · .+ · self-hits kept · \d{4}-\d\d-\d\d \d\d:\d\d$/,
        })
        .waitFor();
      const fields = (await page.locator('dl.fields').first().textContent()) ?? '';
      expect(fields).toContain('Query settwo proteins');
      expect(fields).toMatch(/MethodDIAMOND, /);
      expect(fields).not.toContain('Embedding');
      const proteins = page.getByRole('region', { name: 'proteins', exact: true });
      await settle(count(proteins.locator('tbody tr')), 2);
      expect(await proteins.textContent()).toContain(accessions[0]);
      // The files a person reads and the chart start from a threshold the page shows and lets them change.
      await screenshot(page, '03-prediction-set');
      const threshold = page.getByRole('combobox', { name: 'Show terms scoring at least' });
      expect(await threshold.inputValue()).toBe('0.3');
      expect(
        await page
          .getByRole('link', { name: 'Predictions (TSV, 32 columns; score ≥ 0.3)' })
          .getAttribute('href'),
      ).toMatch(/^\/v1\/embeddings\/prediction-sets\/[0-9a-f-]{36}\/predictions\.tsv\?min_score=0\.3$/);
      expect(
        await page.getByRole('link', { name: 'CAFA format (TSV; score ≥ 0.3)' }).getAttribute('href'),
      ).toMatch(/predictions-cafa\.tsv\?min_score=0\.3$/);
      expect(
        await page.getByRole('link', { name: /Every row, all formats \(ZIP/ }).getAttribute('href'),
      ).toMatch(/predictions\.zip$/);
      await page
        .getByRole('img', { name: /proteins per homology-backed term \(score ≥ 0\.3\)/ })
        .first()
        .waitFor();

      // A slow answer shows a loading state; the chart then counts what the new threshold keeps.
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const goTerms = (url: URL) => url.pathname.endsWith('/go-terms');
      await page.route(goTerms, async (route) => {
        await held;
        await route.continue();
      });
      await threshold.selectOption('0');
      await page.getByRole('status').filter({ hasText: 'Loading the term distribution' }).waitFor();
      await screenshot(page, '03b-prediction-set-loading');
      release();
      await page
        .getByRole('img', { name: /proteins per homology-backed term \(every row\)/ })
        .first()
        .waitFor();
      await page.unroute(goTerms);
      expect(page.url()).toContain('min_score=0');
      expect(await page.getByRole('link', { name: 'JSON (every row)' }).getAttribute('href')).toMatch(
        /predictions\.json\?min_score=0$/,
      );
      expect(await page.getByRole('link', { name: /Every row, all formats/ }).count()).toBe(0);

      await page.getByRole('link', { name: accessions[0]!, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `Predicted terms of ${accessions[0]}` }).waitFor();
      const rows = page.getByRole('region', { name: 'predicted terms', exact: true }).locator('tbody tr');
      await rows.first().waitFor();
      // Best score first (the Score column).
      const scores = (await rows.locator('td:nth-child(4)').allTextContents()).map(Number);
      expect(scores.length).toBeGreaterThan(0);
      expect(scores.every((s) => s >= 0 && s <= 1)).toBe(true);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      await screenshot(page, '04-predicted-terms');

      // Lists name what they list: the run by its query set and settings, the query set its runs.
      await page.goto(`${base}/#/prediction-sets`);
      const setList = page.getByRole('region', { name: 'prediction sets', exact: true });
      const ours = setList
        .locator('tbody tr')
        .filter({ has: page.getByRole('link', { name: 'two proteins', exact: true }) });
      await ours.first().waitFor();
      expect(await setList.locator('thead th').allTextContents()).toEqual([
        'Prediction set',
        'Method',
        'Reference',
        'Self-hits',
        'Predictions',
        'Job',
        'Created',
      ]);
      expect(await ours.first().textContent()).toMatch(/DIAMOND, \S+.*kept/);
      await screenshot(page, '04b-prediction-sets');
      await page.goto(`${base}/#/query-sets`);
      await page.getByRole('link', { name: 'two proteins', exact: true }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Query set two proteins' }).waitFor();
      await page
        .getByRole('region', { name: 'prediction sets of this query set', exact: true })
        .getByRole('link', { name: /^two proteins · DIAMOND, / })
        .waitFor();

      // Evaluations by the annotations they compare; a result by its prediction set; a metric legend.
      await page.goto(`${base}/#/evaluation-sets`);
      const evaluationLink = page
        .getByRole('region', { name: 'evaluation sets', exact: true })
        .getByRole('link', { name: / → / })
        .first();
      const evaluationName = (await evaluationLink.textContent()) ?? '';
      await evaluationLink.click();
      await page.getByRole('heading', { level: 1, name: `Evaluation set ${evaluationName}` }).waitFor();
      await page
        .getByRole('heading', {
          level: 3,
          name: new RegExp(`^all proteins · .+ · self-hits excluded · .+: ${scoringName}$`),
        })
        .waitFor();
      expect(await page.getByTestId('metric-legend').first().textContent()).toMatch(/^Each cell: F-max/);
      await screenshot(page, '04c-evaluation-set');

      await page
        .getByRole('navigation', { name: 'Dashboards' })
        .getByRole('link', { name: 'Benchmark' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Benchmark matrix' }).waitFor();
      await page.getByRole('img', { name: /Score per method/ }).waitFor();
      const cells = page.getByRole('region', { name: /Benchmark cells/ });
      await settle(count(cells.locator('tbody tr')), 1);
      // The seeded set was predicted with DIAMOND: its row is the blend, not the embedding it was filed under.
      expect(await cells.textContent()).toMatch(/DIAMOND, homology-blend-v\d+/);
      expect(await cells.textContent()).not.toContain('kmer-v1');
      expect(
        await page.getByRole('combobox', { name: 'Stage' }).locator(`option[value="${scoringName}"]`).count(),
      ).toBe(1);
      await page.getByRole('combobox', { name: 'Task' }).selectOption('NK/MFO');
      await page.getByRole('img', { name: /NK\/MFO/ }).waitFor();
      await screenshot(page, '05-benchmark');

      // The chained prediction job: its event timeline, and a comment from the signed-in user.
      await page.goto(`${base}/${predictionJob}`);
      await page
        .getByRole('heading', { level: 1, name: /^Predict GO terms( · .+)? · \d{4}-\d\d-\d\d \d\d:\d\d$/ })
        .waitFor();
      const timeline = page.locator('ol.timeline');
      await timeline.waitFor();
      expect(await timeline.textContent()).toContain('job.created');
      expect(await timeline.textContent()).toContain('predict_go_terms_batch.done');
      await page.getByLabel('Add a comment').fill('Checked the two proteins.');
      await page.getByRole('button', { name: 'Post comment' }).click();
      await page.locator('.comments').getByText('Checked the two proteins.').waitFor();
      await screenshot(page, '06-job');

      // The researcher's own jobs (the chained prediction included), filtered by operation and status;
      // the filters live in the address.
      await page.goto(`${base}/#/jobs`);
      const jobs = page.getByRole('region', { name: 'jobs', exact: true });
      await jobs.locator('tbody tr').first().waitFor();
      await page.getByRole('combobox', { name: 'Operation' }).selectOption('predict_go_terms');
      // While the filtered list loads the table may be empty for a moment: wait for rows that all match.
      await settle(async () => {
        const operations = await jobs.locator('tbody tr td:nth-child(2)').allTextContents();
        return operations.length >= 1 && operations.every((o) => o === 'predict_go_terms');
      }, true);
      expect(page.url()).toContain('operation=predict_go_terms');
      // A job is named by what it does, its id beside it.
      expect(await jobs.locator('tbody tr td:nth-child(1) a').first().textContent()).toBe('Predict GO terms');
      await page.getByRole('combobox', { name: 'Status' }).selectOption('FAILED');
      await page.getByText('No jobs yet.').waitFor();

      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);

  it('anonymous visitors read the pages; lists the API refuses (401/403) show empty with a hint to sign in', async () => {
    const { context, page, errors } = await openPage();
    try {
      await page.goto(`${base}/`);
      await page.getByRole('heading', { level: 1, name: 'Protein function annotation' }).waitFor();
      await page.getByRole('link', { name: 'Sign in', exact: true }).waitFor();

      await page.goto(`${base}/#/proteins`);
      await settle(
        count(page.getByRole('region', { name: 'proteins', exact: true }).locator('tbody tr')),
        40,
      );
      // What a FASTA or UniProt header gives, in a biologist's words.
      expect(
        await page
          .getByRole('region', { name: 'proteins', exact: true })
          .locator('thead th')
          .allTextContents(),
      ).toEqual(['Accession', 'Protein', 'Entry name', 'Gene', 'Organism', 'Length', 'Reviewed']);
      await page.goto(`${base}/#/evaluation-sets`);
      await settle(
        count(page.getByRole('region', { name: 'evaluation sets', exact: true }).locator('tbody tr')),
        1,
      );

      // Jobs belong to whoever queued them: an anonymous visitor lists none and is told to sign in.
      await page.goto(`${base}/#/jobs`);
      await page.getByTestId('sign-in-hint').waitFor();
      expect(await page.getByRole('region', { name: 'jobs', exact: true }).locator('tbody tr').count()).toBe(
        0,
      );

      // The GO subgraph: terms are keyboard-focusable buttons; Enter re-centres on the focused term.
      await page.goto(`${base}/#/ontology/${snapshotId}?go=GO:0004674`);
      const selected = page.getByRole('button', { name: /^GO:0004674 .*\(selected\)$/ });
      await selected.waitFor();
      expect(await selected.getAttribute('tabindex')).toBe('0');
      const parent = page.getByRole('button', { name: /^GO:0004672 protein kinase activity$/ });
      await parent.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: /^GO:0004672 .*\(selected\)$/ }).waitFor();
      expect(page.url()).toContain('go=GO%3A0004672');
      expect(await page.getByRole('button', { name: /^GO:0004674 / }).count()).toBe(0);
      await screenshot(page, '07-ontology');

      await page.goto(`${base}/#/admin`);
      await page.getByRole('heading', { level: 1, name: 'Administration' }).waitFor();
      await settle(count(page.getByTestId('restricted-hint')), 3);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await page.locator('table').count()).toBe(0);
      await screenshot(page, '08-anonymous-admin');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('a visitor signs up; the admin approves the account, changes its role, creates and revokes a key; the audit log shows it', async () => {
    const { context, page, errors } = await openPage();
    try {
      const suffix = randomUUID().slice(0, 8);
      await page.goto(`${base}/#/signup`);
      await page.getByLabel('Email').fill(`new-${suffix}@web.test`);
      await page.getByLabel('Username').fill(`new_${suffix}`);
      await page.getByLabel('Display name').fill('Newcomer');
      await page.getByLabel('Password').fill(`pw-${randomUUID()}`);
      await page.getByLabel('Intended use').fill('reading benchmarks');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByText('waits for approval').waitFor();

      await page.goto(`${base}/#/login`);
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await page.getByRole('link', { name: 'Admin', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Administration' }).waitFor();
      const row = page.getByRole('row').filter({ hasText: `new_${suffix}` });
      expect(await row.textContent()).toContain('pending');
      await row.getByRole('button', { name: 'Approve' }).click();
      await row.getByRole('button', { name: 'Deactivate' }).waitFor();
      await row.getByRole('combobox', { name: `Role of new_${suffix}` }).selectOption('operator');
      await settle(() => row.getByRole('combobox').inputValue(), 'operator');

      await page.getByLabel('Key name').fill('automation');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByText('New key (shown once)').waitFor();
      const keys = page.getByRole('region', { name: 'API keys', exact: true });
      await keys.getByRole('button', { name: /^Revoke / }).click();
      await keys.getByText(/^revoked /).waitFor();
      const audit = page.getByRole('region', { name: 'audit entries', exact: true });
      await settle(
        async () => (await audit.locator('tbody tr td:nth-child(2)').allTextContents()).slice(0, 4).join(' '),
        'api_key_revoke api_key_mint role_change admin_approve',
      );
      await screenshot(page, '10-admin');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('works at 375 pixels: the menu opens from a button and no page scrolls sideways', async () => {
    const { context, page, errors } = await openPage(375);
    try {
      await page.goto(`${base}/#/benchmark`);
      await page.getByRole('heading', { level: 1, name: 'Benchmark matrix' }).waitFor();
      await page.getByRole('img', { name: /Score per method/ }).waitFor();
      const nav = page.getByRole('navigation', { name: 'Dashboards' });
      expect(await nav.isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Menu' }).click();
      await nav.waitFor();
      await nav.getByRole('link', { name: 'Jobs' }).click();
      await page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();
      await settle(() => page.evaluate<string>("document.activeElement?.textContent ?? ''"), 'Jobs');
      await nav.waitFor({ state: 'hidden' });
      for (const path of ['/#/jobs', '/#/benchmark', '/#/proteins']) {
        await page.goto(`${base}${path}`);
        await page.locator('h1').waitFor();
        await page.waitForLoadState('networkidle');
        const overflow = await page.evaluate<number>(
          'document.documentElement.scrollWidth - window.innerWidth',
        );
        expect({ path, overflow }).toEqual({ path, overflow: 0 });
      }
      await screenshot(page, '09-narrow-proteins');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('Swagger UI uploads a FASTA to POST /v1/annotate through "Try it out" (the multipart body is in the contract)', async () => {
    const { context, page } = await openPage();
    try {
      const fasta = join(dir, 'swagger.fasta');
      const record = readFileSync(join(DATA, 'tiny/sequences.fasta'), 'utf8').split('>')[3]!;
      writeFileSync(fasta, `>${record}`);
      await page.goto(`${base}/docs`);
      const operation = page.locator('#operations-annotate-AnnotateController_create');
      await operation.locator('.opblock-summary').first().click();
      await operation.getByRole('button', { name: 'Try it out' }).click();
      await operation.locator('input[type="file"]').setInputFiles(fasta);
      await operation.getByRole('button', { name: 'Execute' }).click();
      const live = operation.locator('.live-responses-table tbody');
      const status = live.locator('.response-col_status').first();
      await status.waitFor();
      expect((await status.textContent())?.trim()).toBe('201');
      expect(await live.textContent()).toContain('query_set_id');
      await screenshot(page, '10-swagger-annotate');
    } finally {
      await context.close();
    }
  }, 120_000);
});
