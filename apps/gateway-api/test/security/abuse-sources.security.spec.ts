import { randomUUID } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import { HttpClient, waitForJobEnd, WORKSPACE_ROOT } from '@svc/testing';
import { createUser, SecurityStack, SignedInUser, startSecurityStack } from './security-stack';

interface Job {
  id: string;
  status: string;
  error_code: string | null;
  error_message: string | null;
  result: Record<string, unknown> | null;
}
interface Snapshot {
  id: string;
  obo_url: string;
  ia_url: string | null;
}
interface AnnotationSet {
  id: string;
  source_url: string | null;
}
interface Counted {
  id: string;
  result_count: number;
}

const FIXTURES = join(WORKSPACE_ROOT, 'fixtures');
const OBO_FIXTURE = 'go-subset.2022-07-01.obo';
const GAF_FIXTURE = 'tiny-t0.2022-09-12.gaf';
/** The transfer limits of this suite's stack: small, so that a slow source fails within seconds. */
const DEADLINE_SECONDS = 4;
const MIN_BYTES_PER_SECOND = 1024;
const RATE_WINDOW_SECONDS = 2;

function obo(version: string): string {
  return `format-version: 1.2\ndata-version: ${version}\n\n[Term]\nid: GO:0000001\nname: t\nnamespace: biological_process\n`;
}

describe('abuse of sources (findings 9, 13 and 14)', () => {
  let stack: SecurityStack;
  let admin: HttpClient;
  let guest: HttpClient;
  let researcher: SignedInUser;
  let operator: SignedInUser;
  let work: string;
  let secretDir: string;
  let artifactsDir: string;
  let server: Server;
  let base: string;
  let port: string;
  /** Connections of the slow routes, ended when a test is done with them. */
  const slowSockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let snapshotId: string;
  let uploadedUri: string;

  const db = () => stack.gateway.infra.db;
  const one = async <T = { id: string }>(sql: string, params: unknown[] = []): Promise<T> =>
    (await db().query<T[]>(sql, params))[0]!;
  const as = (user: SignedInUser): HttpClient => guest.withHeaders(user.headers);
  const job = (id: string, timeoutMs = 60_000): Promise<Job> =>
    waitForJobEnd<Job>({ get: <R>(path: string) => admin.get<R>(path) }, id, timeoutMs);
  const queue = async (path: string, body: Record<string, unknown>): Promise<string> => {
    const queued = await admin.post<{ id: string }>(path, body);
    expect({ path, status: queued.status, text: queued.status === 201 ? '' : queued.text }).toEqual({
      path,
      status: 201,
      text: '',
    });
    return queued.body.id;
  };
  const load = async (path: string, body: Record<string, unknown>): Promise<Job> =>
    job(await queue(path, body));

  /** Sends `chunk` every `everyMs` until the client goes away. */
  const drip = (response: ServerResponse, chunk: string, everyMs: number): void => {
    slowSockets.add(response.socket!);
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('format-version: 1.2\n');
    const timer = setInterval(() => response.write(chunk), everyMs);
    timers.add(timer);
    response.once('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  };

  beforeAll(async () => {
    work = realpathSync(mkdtempSync(join(tmpdir(), 'svc-abuse-sources-')));
    secretDir = join(work, 'secret');
    mkdirSync(secretDir);
    writeFileSync(join(secretDir, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    writeFileSync(join(secretDir, 'planted.obo'), obo(`planted-${randomUUID()}`));
    server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      if (path === '/goa/tiny.gaf') response.end(readFileSync(join(FIXTURES, GAF_FIXTURE)));
      else if (path === '/quick.obo') response.end(obo(`quick-${randomUUID()}`));
      // One byte every 200 ms: the 90-second trickle of finding 13, at 5 B/s.
      else if (path === '/trickle.obo') drip(response, '!', 200);
      // 20 KB/s, well above the minimum rate, forever: only the deadline ends it.
      else if (path === '/endless.obo') drip(response, `remark: ${'x'.repeat(1990)}\n`, 100);
      // Accepts the request and never answers.
      else if (path === '/silent.obo') slowSockets.add(request.socket);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = String((server.address() as AddressInfo).port);
    base = `http://127.0.0.1:${port}`;

    stack = await startSecurityStack('abuse_sources', {
      workers: ['ingestion-worker'],
      env: {
        SVC_SOURCE_ALLOWED_ROOTS: FIXTURES,
        SVC_SOURCE_ALLOWED_HOSTS: '127.0.0.1',
        SVC_SOURCE_DEADLINE_SECONDS: String(DEADLINE_SECONDS),
        SVC_SOURCE_MIN_BYTES_PER_SECOND: String(MIN_BYTES_PER_SECOND),
        SVC_SOURCE_RATE_WINDOW_SECONDS: String(RATE_WINDOW_SECONDS),
        SVC_RATELIMIT_POST_JOBS: '1000/minute',
      },
    });
    artifactsDir = realpathSync(stack.env['SVC_ARTIFACTS_DIR']!);
    guest = stack.api;
    admin = stack.api.withHeaders(stack.admin.headers);
    [researcher, operator] = await Promise.all([
      createUser(stack, 'researcher'),
      createUser(stack, 'operator'),
    ]);

    // The ontology as an operator without a shared folder loads it: uploaded, then loaded by its uri.
    const form = new FormData();
    form.set('file', new Blob([readFileSync(join(FIXTURES, OBO_FIXTURE))]), OBO_FIXTURE);
    const upload = await fetch(`${stack.gateway.url}/v1/sources`, {
      method: 'POST',
      body: form,
      headers: stack.admin.headers,
    });
    expect(upload.status).toBe(201);
    uploadedUri = ((await upload.json()) as { uri: string }).uri;
    const loaded = await load('/v1/annotations/snapshots/load', { obo_url: uploadedUri });
    expect({ status: loaded.status, error: loaded.error_message }).toEqual({
      status: 'SUCCEEDED',
      error: null,
    });
    snapshotId = loaded.result!['ontology_snapshot_id'] as string;
  }, 120_000);

  afterAll(async () => {
    for (const timer of timers) clearInterval(timer);
    for (const socket of slowSockets) socket.destroy();
    await stack?.close();
    await new Promise((resolve) => server?.close(resolve));
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('finding 9: callers below operator see sources by file name and counts without private work', async () => {
    // An IA file on the server's disk, and GO annotations from a mirror that wants credentials.
    const iaPath = join(FIXTURES, 'ia', 'go-ia-2022.tsv');
    expect(
      (await admin.patch(`/v1/annotations/snapshots/${snapshotId}/ia-url`, { ia_url: iaPath })).status,
    ).toBe(200);
    const mirrorUrl = `http://reader:s3cret@127.0.0.1:${port}/goa/tiny.gaf?token=tokqqq&taxon=9606`;
    const goa = await load('/v1/annotations/sets/load-goa', {
      ontology_snapshot_id: snapshotId,
      gaf_url: mirrorUrl,
      source_version: `tiny-${randomUUID()}`,
    });
    expect({ status: goa.status, error: goa.error_message }).toEqual({ status: 'SUCCEEDED', error: null });
    const mirrorSetId = goa.result!['annotation_set_id'] as string;
    // A set from a public server, and one from an object store, as a load would have stored them.
    const publicUrl =
      'https://alice:hunter2@ftp.example.org/pub/goa_human.gaf.gz?taxon=9606&token=tokqqq&X-Amz-Signature=sigzzz';
    const publicSet = await one(
      `INSERT INTO annotation_set (source, source_version, ontology_snapshot_id, source_url)
       VALUES ('goa', $1, $2, $3) RETURNING id`,
      [`public-${randomUUID()}`, snapshotId, publicUrl],
    );
    const s3Uri = `s3://svc-internal/sources/${randomUUID()}/goa_rat.gaf`;
    const s3Set = await one(
      `INSERT INTO annotation_set (source, source_version, ontology_snapshot_id, source_url)
       VALUES ('goa', $1, $2, $3) RETURNING id`,
      [`s3-${randomUUID()}`, snapshotId, s3Uri],
    );
    const rerankerUri = pathToFileURL(join(artifactsDir, 'rerankers', 'run-9', 'model.txt')).href;
    const reranker = await one(
      `INSERT INTO reranker_model (name, artifact_uri, feature_schema_sha, spec_yaml, import_kind)
       VALUES ($1, $2, 'sha', 'kind: stump', 'upload') RETURNING id`,
      [`stump-${randomUUID()}`, rerankerUri],
    );

    // Evaluation results: one published, one owner-only and one unlisted.
    const config = await admin.post<{ id: string }>('/v1/embeddings/configs', {
      model_name: 'kmer-v1',
      model_backend: 'kmer',
    });
    expect([200, 201]).toContain(config.status);
    const evaluationSet = await one(
      `INSERT INTO evaluation_set (old_annotation_set_id, new_annotation_set_id, ontology_snapshot_id)
       VALUES ($1, $2, $3) RETURNING id`,
      [publicSet.id, mirrorSetId, snapshotId],
    );
    const predictionSet = async (visibility: string, predictions: number): Promise<string> => {
      const set = await one(
        `INSERT INTO prediction_set (embedding_config_id, annotation_set_id, ontology_snapshot_id, limit_per_entry,
           search_backend, aspect_separated_knn, feature_schema_sha, visibility, owner_user_id)
         VALUES ($1, $2, $3, 5, 'exact', false, 'sha', $4, $5) RETURNING id`,
        [config.body.id, mirrorSetId, snapshotId, visibility, visibility === 'owner' ? researcher.id : null],
      );
      const term = await one<{ id: number; go_id: string }>(
        `SELECT id, go_id FROM go_term WHERE ontology_snapshot_id = $1 ORDER BY id LIMIT 1`,
        [snapshotId],
      );
      for (let i = 0; i < predictions; i += 1)
        await db().query(
          `INSERT INTO prediction (prediction_set_id, protein_accession, go_term_id, go_id, aspect, distance,
             ref_protein_accession, vote_count, k_position)
           VALUES ($1, $2, $3, $4, 'P', 0.1, 'P04066', 1, 1)`,
          [set.id, `Q${i}`, term.id, term.go_id],
        );
      return set.id;
    };
    const publishedPredictions = await predictionSet('public', 1);
    const result = (visibility: string) =>
      one(
        `INSERT INTO evaluation_result (evaluation_set_id, prediction_set_id, th_step, stage, metrics, visibility,
           owner_user_id, ia_source, toi_source)
         VALUES ($1, $2, 0.01, 'knn', '{"NK": {"P": {"fmax": 0.5}}}', $3, $4, $5, $6) RETURNING id`,
        [
          evaluationSet.id,
          publishedPredictions,
          visibility,
          visibility === 'public' ? null : researcher.id,
          join(work, 'private', 'IA.txt'),
          pathToFileURL(join(artifactsDir, 'sources', randomUUID(), 'toi.txt')).href,
        ],
      );
    const published = await result('public');
    await result('owner');
    await result('unlisted');

    // What a reader sees: staff the stored URIs, everyone else names and public URLs only.
    const views = async (client: HttpClient) => {
      const get = async <T>(path: string): Promise<T> => {
        const res = await client.get<T>(path);
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        return res.body;
      };
      return {
        snapshots: await get<Snapshot[]>('/v1/annotations/snapshots'),
        snapshot: await get<Snapshot>(`/v1/annotations/snapshots/${snapshotId}`),
        sets: await get<AnnotationSet[]>('/v1/annotations/sets'),
        set: await get<AnnotationSet>(`/v1/annotations/sets/${mirrorSetId}`),
        rerankers: await get<{ id: string; artifact_uri: string }[]>('/v1/reranker-models'),
        reranker: await get<{ artifact_uri: string }>(`/v1/scoring/rerankers/${reranker.id}`),
        evaluationSets: await get<Counted[]>('/v1/annotations/evaluation-sets'),
        evaluationSet: await get<Counted>(`/v1/annotations/evaluation-sets/${evaluationSet.id}`),
        results: await get<{ id: string; ia_source: string | null; toi_source: string | null }[]>(
          `/v1/annotations/evaluation-sets/${evaluationSet.id}/results`,
        ),
      };
    };
    const sourceOf = (sets: AnnotationSet[], id: string) => sets.find((s) => s.id === id)?.source_url;
    for (const [who, client] of [
      ['guest', guest],
      ['researcher', as(researcher)],
    ] as const) {
      const seen = await views(client);
      const text = JSON.stringify(seen);
      for (const secret of [
        artifactsDir,
        work,
        FIXTURES,
        'file:',
        's3:',
        's3cret',
        'hunter2',
        'tokqqq',
        'sigzzz',
      ])
        expect({ who, leaks: text.includes(secret) ? secret : null }).toEqual({ who, leaks: null });
      const snapshot = seen.snapshots.find((s) => s.id === snapshotId)!;
      expect({ who, obo: snapshot.obo_url, ia: snapshot.ia_url }).toEqual({
        who,
        obo: OBO_FIXTURE,
        ia: 'go-ia-2022.tsv',
      });
      expect(seen.snapshot).toEqual(snapshot);
      expect({
        who,
        mirror: sourceOf(seen.sets, mirrorSetId),
        public: sourceOf(seen.sets, publicSet.id),
        s3: sourceOf(seen.sets, s3Set.id),
        one: seen.set.source_url,
      }).toEqual({
        who,
        // Loopback is no public host: its URL is private, only the file name is shown.
        mirror: 'tiny.gaf',
        public: 'https://ftp.example.org/pub/goa_human.gaf.gz?taxon=9606',
        s3: 'goa_rat.gaf',
        one: 'tiny.gaf',
      });
      expect(seen.rerankers.find((r) => r.id === reranker.id)?.artifact_uri).toBe('model.txt');
      expect(seen.reranker.artifact_uri).toBe('model.txt');
      const shown = seen.results.find((r) => r.id === published.id)!;
      expect({ ia: shown.ia_source, toi: shown.toi_source }).toEqual({ ia: 'IA.txt', toi: 'toi.txt' });
    }
    // The researcher owns the owner-only result and lists it; a guest lists the published one only.
    const guestSeen = await views(guest);
    const researcherSeen = await views(as(researcher));
    expect(guestSeen.evaluationSets.find((s) => s.id === evaluationSet.id)?.result_count).toBe(1);
    expect(guestSeen.evaluationSet.result_count).toBe(1);
    expect(guestSeen.results).toHaveLength(1);
    expect(researcherSeen.evaluationSet.result_count).toBe(2);
    expect(researcherSeen.results).toHaveLength(2);

    for (const client of [admin, as(operator)]) {
      const seen = await views(client);
      const snapshot = seen.snapshots.find((s) => s.id === snapshotId)!;
      expect({ obo: snapshot.obo_url, ia: snapshot.ia_url }).toEqual({ obo: uploadedUri, ia: iaPath });
      expect(sourceOf(seen.sets, mirrorSetId)).toBe(mirrorUrl);
      expect(sourceOf(seen.sets, publicSet.id)).toBe(publicUrl);
      expect(sourceOf(seen.sets, s3Set.id)).toBe(s3Uri);
      expect(seen.reranker.artifact_uri).toBe(rerankerUri);
      expect(seen.evaluationSet.result_count).toBe(3);
    }

    // Public counts leave out private work: prediction sets a guest or a researcher keeps, and
    // embeddings of sequences only such work holds.
    type Counts = Record<string, number>;
    const showcase = async (): Promise<Counts> =>
      (await guest.get<{ counts: Counts }>('/v1/showcase')).body.counts;
    const embeddingCount = async (client: HttpClient): Promise<number> =>
      (await client.get<{ embedding_count: number }>(`/v1/embeddings/configs/${config.body.id}`)).body
        .embedding_count;
    const before = await showcase();
    const [guestEmbeddings, staffEmbeddings] = [await embeddingCount(guest), await embeddingCount(admin)];
    await predictionSet('unlisted', 3);
    await predictionSet('owner', 2);
    const querySet = await one(
      `INSERT INTO query_set (name, visibility) VALUES ('mine', 'unlisted') RETURNING id`,
    );
    const sequence = await one<{ id: number }>(
      `INSERT INTO sequence (sequence, sequence_hash) VALUES ($1, md5($1)) RETURNING id`,
      [
        `MKV${randomUUID()
          .replace(/[^a-f]/g, '')
          .toUpperCase()}`,
      ],
    );
    await db().query(
      `INSERT INTO query_set_entry (query_set_id, accession, sequence_id) VALUES ($1, 'q1', $2)`,
      [querySet.id, sequence.id],
    );
    await db().query(
      `INSERT INTO embedding (embedding_config_id, sequence_id, dimension, vector) VALUES ($1, $2, 1, '\\x00000000')`,
      [config.body.id, sequence.id],
    );
    const after = await showcase();
    expect(after).toEqual(before);
    expect(await embeddingCount(guest)).toBe(guestEmbeddings);
    expect(await embeddingCount(as(researcher))).toBe(guestEmbeddings);
    expect(await embeddingCount(admin)).toBe(staffEmbeddings + 1);
    // Published work is counted.
    await predictionSet('public', 2);
    expect(await showcase()).toEqual({
      ...before,
      prediction_sets: before['prediction_sets']! + 1,
      predictions: before['predictions']! + 2,
    });
  });

  it('finding 13: an http source that trickles, never finishes or never answers fails the job within seconds', async () => {
    const cases = [
      {
        path: '/trickle.obo',
        code: 'source_too_slow',
        message: new RegExp(
          `^http://127\\.0\\.0\\.1:${port}/trickle\\.obo sent \\d+ bytes in the last ${RATE_WINDOW_SECONDS} s, less than ${MIN_BYTES_PER_SECOND} bytes per second \\(SVC_SOURCE_MIN_BYTES_PER_SECOND\\)$`,
        ),
      },
      {
        path: '/endless.obo',
        code: 'source_timeout',
        message: new RegExp(
          `^http://127\\.0\\.0\\.1:${port}/endless\\.obo did not finish within ${DEADLINE_SECONDS} s \\(SVC_SOURCE_DEADLINE_SECONDS\\)$`,
        ),
      },
      {
        path: '/silent.obo',
        code: 'source_timeout',
        message: new RegExp(
          `^http://127\\.0\\.0\\.1:${port}/silent\\.obo did not finish within ${DEADLINE_SECONDS} s`,
        ),
      },
    ];
    try {
      for (const { path, code, message } of cases) {
        const started = Date.now();
        const id = await queue('/v1/annotations/snapshots/load', {
          obo_url: `http://reader:s3cret@127.0.0.1:${port}${path}?token=tokqqq`,
        });
        const done = await job(id, 30_000);
        const seconds = (Date.now() - started) / 1000;
        expect({ path, status: done.status, code: done.error_code }).toEqual({
          path,
          status: 'FAILED',
          code,
        });
        expect(done.error_message).toMatch(message);
        expect(done.error_message).not.toMatch(/s3cret|tokqqq|remark|!!/);
        expect({ path, fast: seconds < DEADLINE_SECONDS + 10 }).toEqual({ path, fast: true });
      }
    } finally {
      for (const socket of slowSockets) socket.destroy();
      slowSockets.clear();
    }
    // The consumer of svc.jobs is free again.
    const next = await load('/v1/annotations/snapshots/load', { obo_url: `${base}/quick.obo` });
    expect({ status: next.status, error: next.error_message }).toEqual({ status: 'SUCCEEDED', error: null });
  });

  it('finding 14: the artifact store follows no symbolic link, for loads and for artifact downloads', async () => {
    // Links planted in the store: a file link and a folder link, both leading out of it.
    const fileLink = join(artifactsDir, 'sources', randomUUID(), 'planted.obo');
    mkdirSync(join(fileLink, '..'), { recursive: true });
    symlinkSync(join(secretDir, 'planted.obo'), fileLink);
    const folderLink = join(artifactsDir, 'sources', randomUUID());
    symlinkSync(secretDir, folderLink);
    for (const path of [fileLink, join(folderLink, 'planted.obo')]) {
      const done = await load('/v1/annotations/snapshots/load', { obo_url: pathToFileURL(path).href });
      expect({ path, status: done.status, code: done.error_code }).toEqual({
        path,
        status: 'FAILED',
        code: 'source_not_found',
      });
      expect(done.error_message).not.toContain(secretDir);
      expect(done.error_message).not.toMatch(/planted-|link/i);
    }

    // A published result whose stored outputs hold a planted file link and a planted folder link:
    // the download has the real file only.
    const [set] = await db().query<{ id: string }[]>(`SELECT id FROM evaluation_set LIMIT 1`);
    const evaluationSet =
      set ??
      (await one(
        `INSERT INTO evaluation_set (old_annotation_set_id, new_annotation_set_id, ontology_snapshot_id)
         SELECT a.id, a.id, a.ontology_snapshot_id FROM annotation_set a LIMIT 1 RETURNING id`,
      ));
    const resultId = randomUUID();
    const prefix = `eval_artifacts/${resultId}/`;
    const keys = [`${prefix}summary.json`, `${prefix}nk/evaluation_all.tsv`, `${prefix}pk/passwd`];
    mkdirSync(join(artifactsDir, prefix, 'nk'), { recursive: true });
    writeFileSync(join(artifactsDir, prefix, 'summary.json'), '{"ok": true}');
    symlinkSync(join(secretDir, 'passwd'), join(artifactsDir, prefix, 'nk', 'evaluation_all.tsv'));
    symlinkSync(secretDir, join(artifactsDir, prefix, 'pk'));
    await db().query(
      `INSERT INTO evaluation_result (id, evaluation_set_id, th_step, stage, metrics, visibility, artifact_prefix,
         artifact_keys)
       VALUES ($1, $2, 0.01, 'knn', '{}', 'public', $3, $4)`,
      [resultId, evaluationSet!.id, prefix, keys],
    );
    const zip = await fetch(
      `${stack.gateway.url}/v1/annotations/evaluation-sets/${evaluationSet!.id}/results/${resultId}/artifacts.zip`,
    );
    expect(zip.status).toBe(200);
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.includes('root:x')).toBe(false);
    const entries = unzipSync(bytes);
    expect(Object.keys(entries)).toEqual(['summary.json']);

    // Only links: the same answer as no stored file at all.
    const linksOnly = randomUUID();
    await db().query(
      `INSERT INTO evaluation_result (id, evaluation_set_id, th_step, stage, metrics, visibility, artifact_prefix,
         artifact_keys)
       VALUES ($1, $2, 0.01, 'knn', '{}', 'public', $3, $4)`,
      [linksOnly, evaluationSet!.id, prefix, keys.slice(1)],
    );
    const none = await guest.get<{ status: number; detail: string }>(
      `/v1/annotations/evaluation-sets/${evaluationSet!.id}/results/${linksOnly}/artifacts.zip`,
    );
    expect(none.status).toBe(404);
    expect(none.text).not.toContain(secretDir);
  });
});
