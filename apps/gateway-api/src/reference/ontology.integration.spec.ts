import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { AppProcess, HttpClient, spawnApp, testConfig, waitForJobEnd } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

const DATA = resolve(__dirname, '../../../../../shared/data');
const RELEASES = [
  'go-basic.godb-3.12.1.2020-09-10.obo.gz',
  'go-basic.godb-3.16.0.2022-07-01.obo.gz',
  'go-basic.godb-3.20.0.built-2024-09-23.obo.gz',
];
const RELEASE_2022 = 'go-basic.godb-3.16.0.2022-07-01.obo.gz';

/** Counts taken straight from the file text, independently of the service's parser. */
function countRelease(text: string): { version: string; terms: number; edges: number; altIds: number } {
  const version = /^data-version: (.+)$/m.exec(text)?.[1]?.trim() ?? '';
  let terms = 0;
  let edges = 0;
  let altIds = 0;
  let inTerm = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('[')) {
      inTerm = line.trim() === '[Term]';
      if (inTerm) terms += 1;
      continue;
    }
    if (!inTerm) continue;
    if (line.startsWith('is_a: ')) edges += 1;
    else if (/^relationship: (part_of|regulates|negatively_regulates|positively_regulates) GO:/.test(line))
      edges += 1;
    else if (line.startsWith('alt_id: ')) altIds += 1;
  }
  return { version, terms, edges, altIds };
}

interface Job {
  status: string;
  result: Record<string, unknown> | null;
  error_code: string | null;
  error_message: string | null;
}

describe('GO releases through load_ontology_snapshot', () => {
  let gateway: Gateway;
  let worker: AppProcess;
  let api: HttpClient;

  const runJob = async (path: string, body: unknown): Promise<Job> => {
    const queued = await api.post<{ id: string }>(path, body);
    expect(queued.status).toBe(201);
    return waitForJobEnd<Job>(api, queued.body.id);
  };

  beforeAll(async () => {
    gateway = await createGateway(testConfig());
    api = new HttpClient(gateway.url);
    worker = await spawnApp('ingestion-worker');
    await worker.waitForLog('worker started');
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.close();
  });

  it.each(RELEASES)('%s loads with the term and edge counts of the file, and only once', async (file) => {
    const path = join(DATA, 'go', file);
    const expected = countRelease(gunzipSync(readFileSync(path)).toString('utf8'));
    // The run's database is shared by every suite, and another suite may have loaded this release.
    const [{ present }] = await gateway.infra.db.query(
      `SELECT count(*)::int AS present FROM ontology_snapshot WHERE obo_version = $1`,
      [expected.version],
    );
    const first = await runJob('/v1/annotations/snapshots/load', { obo_url: path });
    expect(first.error_message).toBeNull();
    expect(first.status).toBe('SUCCEEDED');
    expect(first.result).toMatchObject({
      obo_version: expected.version,
      created: present === 0,
      term_count: expected.terms,
      relationship_count: expected.edges,
      skipped_relationships: 0,
    });
    const id = first.result!['ontology_snapshot_id'] as string;
    const snapshot = await api.get<{ term_count: number; relationship_count: number; obo_version: string }>(
      `/v1/annotations/snapshots/${id}`,
    );
    expect(snapshot.body).toMatchObject({
      term_count: expected.terms,
      relationship_count: expected.edges,
      obo_version: expected.version,
    });
    const [counts] = await gateway.infra.db.query(
      `SELECT (SELECT count(*)::int FROM go_term WHERE ontology_snapshot_id = $1) AS terms,
              (SELECT count(*)::int FROM go_term_relationship WHERE ontology_snapshot_id = $1) AS edges,
              (SELECT count(*)::int FROM go_term_alt_id WHERE ontology_snapshot_id = $1) AS alt_ids`,
      [id],
    );
    expect(counts).toEqual({ terms: expected.terms, edges: expected.edges, alt_ids: expected.altIds });

    const again = await runJob('/annotations/snapshots/load', { obo_url: `file://${path}` });
    expect(again.result).toMatchObject({ ontology_snapshot_id: id, created: false });
    const [{ n }] = await gateway.infra.db.query(
      `SELECT count(*)::int AS n FROM ontology_snapshot WHERE obo_version = $1`,
      [expected.version],
    );
    expect(n).toBe(1);
  });

  it("refuses a subset carrying a loaded release's data-version, naming both, and stores nothing", async () => {
    const release = await runJob('/v1/annotations/snapshots/load', {
      obo_url: join(DATA, 'go', RELEASE_2022),
    });
    const stored = release.result!;
    expect(stored['content_sha256']).toMatch(/^[0-9a-f]{64}$/);
    // The shared tiny holdout's subset says `data-version: releases/2022-07-01`, as the release does.
    const subset = await runJob('/v1/annotations/snapshots/load', {
      obo_url: join(DATA, 'tiny/go-subset.2022-07-01.obo'),
    });
    expect(subset).toMatchObject({ status: 'FAILED', error_code: 'ontology_version_conflict', result: null });
    expect(subset.error_message).toContain(`data-version releases/2022-07-01 is loaded already`);
    expect(subset.error_message).toContain(`snapshot ${String(stored['ontology_snapshot_id'])}`);
    expect(subset.error_message).toContain(`${String(stored['term_count'])} terms`);
    expect(subset.error_message).toMatch(/this file has other content \(716 terms/);
    const [{ n }] = await gateway.infra.db.query(
      `SELECT count(*)::int AS n FROM ontology_snapshot WHERE obo_version = 'releases/2022-07-01'`,
    );
    expect(n).toBe(1);
  });

  it('hashes a release stored before content hashes from its stored terms, as the file hashes', async () => {
    const path = join(DATA, 'go', RELEASE_2022);
    const first = await runJob('/v1/annotations/snapshots/load', { obo_url: path });
    const id = first.result!['ontology_snapshot_id'] as string;
    await gateway.infra.db.query(`UPDATE ontology_snapshot SET content_sha256 = NULL WHERE id = $1`, [id]);
    const again = await runJob('/v1/annotations/snapshots/load', { obo_url: path });
    expect(again.result).toMatchObject({
      ontology_snapshot_id: id,
      created: false,
      content_sha256: first.result!['content_sha256'],
    });
  });

  it('lists snapshots newest first with counts; 404 for unknown ids', async () => {
    const list =
      await api.get<{ id: string; loaded_at: string; term_count: number }[]>('/v1/annotations/snapshots');
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThanOrEqual(3);
    const times = list.body.map((s) => s.loaded_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await api.get(`/v1/annotations/snapshots/${randomUUID()}`)).status).toBe(404);
    expect((await api.get('/v1/annotations/snapshots/not-a-uuid')).status).toBe(404);
  });

  it('subgraph walks upward from the seeds within depth, alt ids resolved', async () => {
    const [snapshot] = (
      await api.get<{ id: string; obo_version: string }[]>('/v1/annotations/snapshots')
    ).body.filter((s) => s.obo_version.includes('2022-07-01'));
    const id = snapshot!.id;
    type Graph = {
      nodes: { id: number; go_id: string; name: string; aspect: string; is_query: boolean }[];
      edges: { source: number; target: number; relation_type: string }[];
    };
    // GO:0006915 apoptotic process.
    const full = await api.get<Graph>(`/v1/annotations/snapshots/${id}/subgraph?go_ids=GO:0006915&depth=50`);
    expect(full.status).toBe(200);
    const goIds = full.body.nodes.map((n) => n.go_id);
    expect(goIds).toContain('GO:0006915');
    expect(goIds).toContain('GO:0008150');
    expect(full.body.nodes.find((n) => n.go_id === 'GO:0006915')).toMatchObject({
      is_query: true,
      aspect: 'P',
      name: 'apoptotic process',
    });
    expect(full.body.nodes.filter((n) => n.is_query)).toHaveLength(1);
    const ids = new Set(full.body.nodes.map((n) => n.id));
    for (const edge of full.body.edges) {
      expect(ids.has(edge.source) && ids.has(edge.target)).toBe(true);
    }
    const one = await api.get<Graph>(`/v1/annotations/snapshots/${id}/subgraph?go_ids=GO:0006915&depth=1`);
    const seed = one.body.nodes.find((n) => n.is_query)!;
    const parents = one.body.edges.filter((e) => e.source === seed.id).map((e) => e.target);
    expect(parents.length).toBeGreaterThan(0);
    expect(one.body.nodes.length).toBe(1 + new Set(parents).size);
    const zero = await api.get<Graph>(`/v1/annotations/snapshots/${id}/subgraph?go_ids=GO:0006915&depth=0`);
    expect(zero.body.nodes).toHaveLength(1);
    expect(zero.body.edges).toHaveLength(0);
    expect((await api.get(`/v1/annotations/snapshots/${id}/subgraph?go_ids=apoptosis`)).status).toBe(422);
    expect((await api.get(`/v1/annotations/snapshots/${id}/subgraph`)).status).toBe(422);
    expect(
      (await api.get(`/v1/annotations/snapshots/${randomUUID()}/subgraph?go_ids=GO:0006915`)).status,
    ).toBe(404);
  });

  it('sets and clears the IA URL of a snapshot (empty string becomes null); 404 when unknown', async () => {
    const [snapshot] = (await api.get<{ id: string }[]>('/v1/annotations/snapshots')).body;
    const set = await api.patch<{ ia_url: string | null }>(
      `/v1/annotations/snapshots/${snapshot!.id}/ia-url`,
      { ia_url: pathToFileURL(join(DATA, 'IA.tsv')).href },
    );
    expect(set.status).toBe(200);
    expect(set.body.ia_url).toBe(pathToFileURL(join(DATA, 'IA.tsv')).href);
    const cleared = await api.patch<{ ia_url: string | null }>(
      `/annotations/snapshots/${snapshot!.id}/ia-url`,
      { ia_url: '' },
    );
    expect(cleared.body.ia_url).toBeNull();
    expect(
      (await api.patch(`/v1/annotations/snapshots/${randomUUID()}/ia-url`, { ia_url: 'x' })).status,
    ).toBe(404);
    expect((await api.patch(`/v1/annotations/snapshots/${snapshot!.id}/ia-url`, { ia: 'x' })).status).toBe(
      422,
    );
  });

  it('fails clearly for a missing file, a file that is not OBO, and a bad body', async () => {
    const missing = await runJob('/v1/annotations/snapshots/load', { obo_url: join(DATA, 'no-such-go.obo') });
    expect(missing).toMatchObject({ status: 'FAILED', error_code: 'source_not_found' });
    const notObo = await runJob('/v1/annotations/snapshots/load', { obo_url: join(DATA, 'README.md') });
    expect(notObo).toMatchObject({ status: 'FAILED', error_code: 'invalid_obo' });
    expect((await api.post('/v1/annotations/snapshots/load', { obo: 'x' })).status).toBe(422);
  });
});
