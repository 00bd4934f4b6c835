import { randomUUID } from 'node:crypto';
import { createDataSource, DataSource } from '@svc/persistence';
import { HttpClient, testConfig } from '@svc/testing';
import { createGateway, Gateway } from '../app.factory';

describe('support and showcase over HTTP', () => {
  let gateway: Gateway;
  let api: HttpClient;
  let db: DataSource;

  beforeAll(async () => {
    const config = testConfig();
    gateway = await createGateway(config);
    api = new HttpClient(gateway.url);
    db = createDataSource({ url: config.dbUrl, poolSize: 2 });
    await db.initialize();
  });

  afterAll(async () => {
    await gateway?.close();
    await db?.destroy();
  });

  /** An evaluation result whose NK/MFO score no real result reaches, stored with this visibility. */
  async function unbeatableResult(visibility: string): Promise<string> {
    const one = async (sql: string, params: unknown[]): Promise<string> =>
      (await db.query<{ id: string }[]>(sql, params))[0]!.id;
    const snapshot = await one(
      `INSERT INTO ontology_snapshot (obo_version, obo_url) VALUES ($1, 'file:///go.obo') RETURNING id`,
      [`showcase-${randomUUID()}`],
    );
    const set = (): Promise<string> =>
      one(
        `INSERT INTO annotation_set (source, source_version, ontology_snapshot_id) VALUES ('goa', $1, $2) RETURNING id`,
        [randomUUID(), snapshot],
      );
    const [oldSet, newSet] = [await set(), await set()];
    const config = await one(
      `INSERT INTO embedding_config (id, model_name, model_backend, layer_indices, layer_agg, pooling,
         normalize_residues, normalize, max_length, use_chunking, chunk_size, chunk_overlap, embedding_scale)
       VALUES ($1, $2, 'kmer', '{0}', 'mean', 'mean', false, true, 1000, false, 1000, 0, 1) RETURNING id`,
      [randomUUID(), `showcase-${randomUUID()}`],
    );
    const predictionSet = await one(
      `INSERT INTO prediction_set (embedding_config_id, annotation_set_id, ontology_snapshot_id, limit_per_entry,
         search_backend, aspect_separated_knn, feature_schema_sha)
       VALUES ($1, $2, $3, 5, 'numpy', false, 'sha') RETURNING id`,
      [config, oldSet, snapshot],
    );
    const evaluationSet = await one(
      `INSERT INTO evaluation_set (old_annotation_set_id, new_annotation_set_id, ontology_snapshot_id)
       VALUES ($1, $2, $3) RETURNING id`,
      [oldSet, newSet, snapshot],
    );
    return one(
      `INSERT INTO evaluation_result (evaluation_set_id, prediction_set_id, th_step, stage, metrics, visibility)
       VALUES ($1, $2, 0.01, 'knn', '{"NK": {"F": {"f_micro_w": 1.5}}}', $3) RETURNING id`,
      [evaluationSet, predictionSet, visibility],
    );
  }

  it('counts thumbs-up and lists recent comments, newest first; validates the body', async () => {
    const before = (await api.get<{ total: number }>('/v1/support')).body.total;
    expect((await api.post('/v1/support', {})).status).toBe(201);
    expect((await api.post('/v1/support', { comment: '  ' })).status).toBe(201);
    const commented = await api.post<{ comment: string }>('/v1/support', {
      comment: ' useful holdout tables ',
    });
    expect(commented.body.comment).toBe('useful holdout tables');
    expect((await api.post('/v1/support', { comment: 'x'.repeat(2001) })).status).toBe(422);
    expect((await api.post('/v1/support', { rating: 5 })).status).toBe(422);
    const after = await api.get<{ total: number; recent_comments: { comment: string }[] }>('/support');
    expect(after.body.total).toBe(before + 3);
    expect(after.body.recent_comments[0]!.comment).toBe('useful holdout tables');
    expect(after.body.recent_comments.every((c) => c.comment !== null)).toBe(true);
  });

  it('showcase gives the platform counts and best results per task', async () => {
    const showcase = await api.get<{ counts: Record<string, number>; best_results: unknown[] }>(
      '/v1/showcase',
    );
    expect(showcase.status).toBe(200);
    for (const key of ['proteins', 'annotation_sets', 'prediction_sets', 'evaluation_results', 'rerankers'])
      expect(typeof showcase.body.counts[key]).toBe('number');
    expect(Array.isArray(showcase.body.best_results)).toBe(true);
  });

  it('shows guests no unlisted or owner-only result: an unlisted id is its secret link', async () => {
    const showcase = async () =>
      (await api.get<{ best_results: { result_id: string }[] }>('/v1/showcase')).body.best_results.map(
        (r) => r.result_id,
      );
    const hidden = await Promise.all(['unlisted', 'owner'].map(unbeatableResult));
    const shown = await showcase();
    for (const id of hidden) expect(shown).not.toContain(id);

    // The same result, published, is the best NK/MFO result there is.
    await db.query(`UPDATE evaluation_result SET visibility = 'public' WHERE id = $1`, [hidden[0]]);
    expect(await showcase()).toContain(hidden[0]);
  });
});
