import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CommunityRepository } from './community.repository';
import { useOwnDatabase } from '../../testing/repository-test-support';
import { saveEmbeddingConfig } from '../../testing/repository-fixtures';

// CommunityRepository in a database of its own (every reader counts whole tables): thumbs-up are
// stored and summed with the newest comments, and the showcase counts what the platform publishes
// and picks the best published result of each (category, aspect) by f_micro_w, else fmax.

let own: DataSource;
let community: CommunityRepository;

const ISO_MICROS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

useOwnDatabase('community', (opened) => {
  own = opened;
  community = new CommunityRepository(own);
});

async function one<T>(sql: string, params: unknown[] = []): Promise<T> {
  const [row] = await own.query<T[]>(sql, params);
  return row!;
}

describe('CommunityRepository support', () => {
  it('addSupport stores thumbs-up with or without a comment; support sums them and lists the newest comments', async () => {
    expect(await community.support()).toEqual({ total: 0, recent_comments: [] });

    const first = await community.addSupport('great service');
    expect(first).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      comment: 'great service',
      created_at: expect.stringMatching(ISO_MICROS),
    });
    const bare = await community.addSupport(null);
    expect(bare).toEqual({ id: expect.any(String), comment: null, created_at: expect.any(String) });
    expect(bare.id).not.toBe(first.id);
    await community.addSupport('second');
    await community.addSupport(null);
    const newest = await community.addSupport('third');

    const summary = await community.support();
    expect(summary.total).toBe(5);
    expect(summary.recent_comments).toEqual([newest, expect.objectContaining({ comment: 'second' }), first]);

    const short = await community.support(2);
    expect(short.total).toBe(5);
    expect(short.recent_comments.map((c) => c['comment'])).toEqual(['third', 'second']);
  });
});

describe('CommunityRepository support limits', () => {
  it('lists 20 comments by default, and counts thumbs-up without comments too', async () => {
    const before = (await community.support()).total;
    for (let i = 0; i < 21; i += 1) await community.addSupport(`comment ${i}`);
    await community.addSupport(null);

    const summary = await community.support();
    expect(summary.total).toBe(before + 22);
    expect(summary.recent_comments).toHaveLength(20);
    expect(summary.recent_comments[0]?.['comment']).toBe('comment 20');
    expect(summary.recent_comments[19]?.['comment']).toBe('comment 1');
  });
});

describe('CommunityRepository.showcase', () => {
  it('counts the rows of each kind and picks the best result per (category, aspect)', async () => {
    // An empty platform first: nothing counted, no result.
    expect(await community.showcase()).toEqual({
      counts: {
        proteins: 0,
        ontology_snapshots: 0,
        annotation_sets: 0,
        annotations: 0,
        embedding_configs: 0,
        embeddings: 0,
        prediction_sets: 0,
        predictions: 0,
        evaluation_sets: 0,
        evaluation_results: 0,
        rerankers: 0,
      },
      best_results: [],
    });

    const snapshot = (
      await one<{ id: string }>(
        `INSERT INTO ontology_snapshot (obo_version, obo_url) VALUES ($1, 'file:///go.obo') RETURNING id`,
        [`test-${randomUUID()}`],
      )
    ).id;
    const annotationSet = async (count: number): Promise<string> =>
      (
        await one<{ id: string }>(
          `INSERT INTO annotation_set (source, source_version, ontology_snapshot_id, annotation_count)
           VALUES ('goa', $1, $2, $3) RETURNING id`,
          [randomUUID(), snapshot, count],
        )
      ).id;
    const oldSet = await annotationSet(3);
    const newSet = await annotationSet(4);
    const sequence = (
      await one<{ id: number }>(
        `INSERT INTO sequence (sequence, sequence_hash) VALUES ('MKV', md5('MKV')) RETURNING id`,
      )
    ).id;
    await own.query(
      `INSERT INTO protein (accession, canonical_accession, sequence_id) VALUES ('P1', 'P1', $1), ('P2', 'P2', NULL)`,
      [sequence],
    );
    const config = await saveEmbeddingConfig(own, { max_length: 1000 });
    await own.query(
      `INSERT INTO embedding (embedding_config_id, sequence_id, dimension, vector) VALUES ($1, $2, 1, '\\x00000000')`,
      [config, sequence],
    );
    // A published prediction set: the showcase counts public work only (see the test below).
    const predictionSet = (
      await one<{ id: string }>(
        `INSERT INTO prediction_set (embedding_config_id, annotation_set_id, ontology_snapshot_id, limit_per_entry,
           search_backend, aspect_separated_knn, feature_schema_sha, visibility)
         VALUES ($1, $2, $3, 5, 'numpy', false, 'sha', 'public') RETURNING id`,
        [config, oldSet, snapshot],
      )
    ).id;
    await own.query(
      `INSERT INTO prediction (prediction_set_id, protein_accession, go_term_id, go_id, aspect, distance,
         ref_protein_accession, vote_count, k_position)
       VALUES ($1, 'P1', 1, 'GO:0000001', 'F', 0.1, 'P2', 1, 1), ($1, 'P1', 2, 'GO:0000002', 'P', 0.2, 'P2', 1, 1)`,
      [predictionSet],
    );
    const evaluationSet = (
      await one<{ id: string }>(
        `INSERT INTO evaluation_set (old_annotation_set_id, new_annotation_set_id, ontology_snapshot_id)
         VALUES ($1, $2, $3) RETURNING id`,
        [oldSet, newSet, snapshot],
      )
    ).id;
    const result = async (metrics: unknown, stage: string): Promise<string> =>
      (
        await one<{ id: string }>(
          `INSERT INTO evaluation_result (evaluation_set_id, prediction_set_id, th_step, stage, metrics)
           VALUES ($1, $2, 0.01, $3, $4) RETURNING id`,
          [evaluationSet, predictionSet, stage, JSON.stringify(metrics)],
        )
      ).id;
    // Weighted results rank by f_micro_w; a result evaluated without IA ranks by fmax.
    const weaker = await result(
      { NK: { F: { f_micro_w: 0.4, fmax: 0.9 }, P: { fmax: 0.3 } }, LK: { C: { fmax: null } } },
      'knn',
    );
    const stronger = await result({ NK: { F: { f_micro_w: 0.6, fmax: 0.5 } } }, 'reranked');
    const onlyFmax = await result({ NK: { P: { fmax: 0.35 } }, PK: { C: { fmax: 0.2 } } }, 'knn');
    await own.query(
      `INSERT INTO reranker_model (name, artifact_uri, feature_schema_sha, spec_yaml, import_kind)
       VALUES ('stump', 'file:///stump.txt', 'sha', 'kind: stump', 'upload')`,
    );

    const showcase = await community.showcase();
    expect(showcase['counts']).toEqual({
      proteins: 2,
      ontology_snapshots: 1,
      annotation_sets: 2,
      annotations: 7,
      embedding_configs: 1,
      embeddings: 1,
      prediction_sets: 1,
      predictions: 2,
      evaluation_sets: 1,
      evaluation_results: 3,
      rerankers: 1,
    });
    const best = showcase.best_results;
    expect(best).toEqual([
      {
        category: 'NK',
        aspect: 'F',
        result_id: stronger,
        evaluation_set_id: evaluationSet,
        prediction_set_id: predictionSet,
        stage: 'reranked',
        metric: 'f_micro_w',
        value: 0.6,
        created_at: expect.stringMatching(ISO_MICROS),
      },
      expect.objectContaining({
        category: 'NK',
        aspect: 'P',
        result_id: onlyFmax,
        metric: 'fmax',
        value: 0.35,
      }),
      expect.objectContaining({
        category: 'PK',
        aspect: 'C',
        result_id: onlyFmax,
        metric: 'fmax',
        value: 0.2,
      }),
    ]);
    // The weaker result is best nowhere, and LK/C has no value at all.
    expect(best.some((b) => b['result_id'] === weaker)).toBe(false);
  });

  it('counts no private work: owner-only and unlisted prediction sets, embeddings of private sequences', async () => {
    const before = await community.showcase();
    const { embedding_config_id, annotation_set_id, ontology_snapshot_id } = await one<{
      embedding_config_id: string;
      annotation_set_id: string;
      ontology_snapshot_id: string;
    }>(`SELECT embedding_config_id, annotation_set_id, ontology_snapshot_id FROM prediction_set LIMIT 1`);
    const predictionSet = async (visibility: string): Promise<string> => {
      const { id } = await one<{ id: string }>(
        `INSERT INTO prediction_set (embedding_config_id, annotation_set_id, ontology_snapshot_id, limit_per_entry,
           search_backend, aspect_separated_knn, feature_schema_sha, visibility)
         VALUES ($1, $2, $3, 5, 'numpy', false, 'sha', $4) RETURNING id`,
        [embedding_config_id, annotation_set_id, ontology_snapshot_id, visibility],
      );
      await own.query(
        `INSERT INTO prediction (prediction_set_id, protein_accession, go_term_id, go_id, aspect, distance,
           ref_protein_accession, vote_count, k_position)
         VALUES ($1, 'Q1', 1, 'GO:0000001', 'F', 0.1, 'P2', 1, 1), ($1, 'Q2', 1, 'GO:0000001', 'F', 0.1, 'P2', 1, 1)`,
        [id],
      );
      return id;
    };
    // A guest's one-click sequence, embedded: it belongs to an unlisted query set only.
    const embed = async (sequence: string, visibility: string): Promise<void> => {
      const { id: sequenceId } = await one<{ id: number }>(
        `INSERT INTO sequence (sequence, sequence_hash) VALUES ($1, md5($1)) RETURNING id`,
        [sequence],
      );
      const { id: querySet } = await one<{ id: string }>(
        `INSERT INTO query_set (name, visibility) VALUES ('q', $1) RETURNING id`,
        [visibility],
      );
      await own.query(
        `INSERT INTO query_set_entry (query_set_id, accession, sequence_id) VALUES ($1, 'q1', $2)`,
        [querySet, sequenceId],
      );
      await own.query(
        `INSERT INTO embedding (embedding_config_id, sequence_id, dimension, vector) VALUES ($1, $2, 1, '\\x00000000')`,
        [embedding_config_id, sequenceId],
      );
    };
    await predictionSet('unlisted');
    await predictionSet('owner');
    await embed('MKVPRIVATE', 'unlisted');
    await embed('MKVOWNER', 'owner');
    expect(await community.showcase()).toEqual(before);

    // The same kinds of work, public, are counted.
    await predictionSet('public');
    await embed('MKVPUBLIC', 'public');
    const counts = before['counts'] as Record<string, number>;
    expect((await community.showcase())['counts']).toEqual({
      ...counts,
      prediction_sets: counts['prediction_sets']! + 1,
      predictions: counts['predictions']! + 2,
      embeddings: counts['embeddings']! + 1,
    });
  });

  it('shows only published results: an unlisted or owner-only one is neither ranked nor counted', async () => {
    const before = await community.showcase();
    const { evaluation_set_id, prediction_set_id } = await one<{
      evaluation_set_id: string;
      prediction_set_id: string;
    }>(`SELECT evaluation_set_id, prediction_set_id FROM evaluation_result LIMIT 1`);
    for (const visibility of ['unlisted', 'owner'])
      await own.query(
        `INSERT INTO evaluation_result (evaluation_set_id, prediction_set_id, th_step, stage, metrics, visibility)
         VALUES ($1, $2, 0.01, 'knn', $3, $4)`,
        [
          evaluation_set_id,
          prediction_set_id,
          JSON.stringify({ NK: { F: { f_micro_w: 0.99 } } }),
          visibility,
        ],
      );
    const after = await community.showcase();
    expect(after['best_results']).toEqual(before['best_results']);
    expect((after['counts'] as Record<string, number>)['evaluation_results']).toBe(
      (before['counts'] as Record<string, number>)['evaluation_results'],
    );
  });
});
