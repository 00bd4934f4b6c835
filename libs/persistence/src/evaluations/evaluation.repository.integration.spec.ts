import { randomBytes, randomUUID } from 'node:crypto';
import { SCORING_SIGNALS, ScoringWeights, Visibility } from '@svc/domain';
import { DataSource } from 'typeorm';
import { ScoringConfigRepository } from '../predictions/scoring-config.repository';
import { ProteinRepository } from '../reference/protein.repository';
import {
  EvaluationRepository,
  EvaluationSetRecord,
  GroundTruthRow,
  NewEvaluationResult,
} from './evaluation.repository';
import { domainError, useRunDatabase } from '../../testing/repository-test-support';
import {
  deleteFixtures,
  goRelease,
  insertAnnotationSet,
  insertSnapshot,
  proteinEntry,
  saveEmbeddingConfig,
} from '../../testing/repository-fixtures';

// EvaluationRepository against the run's PostgreSQL: a temporal holdout and its ground truth are
// stored all or nothing and read by category; results are written, updated, listed by ownership
// scope (published ones to everyone) and deleted with the artifact keys the caller must remove.

let db: DataSource;
let evaluations: EvaluationRepository;

const tag = `EV${randomBytes(4).toString('hex').toUpperCase()}`;
const [P1, P2, P3, P4] = [1, 2, 3, 4].map((n) => `${tag}-${n}`) as [string, string, string, string];

let snapshotId: string;
let oboVersion: string;
let oldSetId: string;
let newSetId: string;
let configId: string;
let scoringId: string;
let scoringName: string;

/**
 * NK: P1 (F, P) and P3 (F; no protein row); LK: P2 (F) and P1 (C); PK: P4 (P) with its known F term.
 * P1's first NK row is listed twice.
 */
const GROUND_TRUTH: GroundTruthRow[] = [
  { category: 'NK', protein_accession: P1, go_id: 'GO:0000002', aspect: 'P' },
  { category: 'NK', protein_accession: P1, go_id: 'GO:0000001', aspect: 'F' },
  { category: 'NK', protein_accession: P3, go_id: 'GO:0000001', aspect: 'F' },
  { category: 'LK', protein_accession: P2, go_id: 'GO:0000001', aspect: 'F' },
  { category: 'LK', protein_accession: P1, go_id: 'GO:0000003', aspect: 'C' },
  { category: 'PK', protein_accession: P4, go_id: 'GO:0000002', aspect: 'P' },
  { category: 'KNOWN', protein_accession: P4, go_id: 'GO:0000001', aspect: 'F' },
  { category: 'NK', protein_accession: P1, go_id: 'GO:0000002', aspect: 'P' },
];

function newSet(extra: Partial<Omit<EvaluationSetRecord, 'id' | 'created_at'>> = {}) {
  return {
    old_annotation_set_id: oldSetId,
    new_annotation_set_id: newSetId,
    ontology_snapshot_id: snapshotId,
    job_id: null,
    evidence: 'experimental',
    stats: { nk_proteins: 2, window: '2023-2024' },
    ...extra,
  };
}

/** A result's columns as the evaluation worker writes them; `extra` overrides. */
function result(evaluationSetId: string, extra: Partial<NewEvaluationResult> = {}): NewEvaluationResult {
  return {
    evaluation_set_id: evaluationSetId,
    prediction_set_id: null,
    embedding_config_id: configId,
    scoring_config_id: null,
    reranker_model_id: null,
    rerankers: null,
    job_id: null,
    band: null,
    frame: null,
    th_step: 0.01,
    max_terms: null,
    ia_source: null,
    toi_source: null,
    temporal_window: null,
    leakage_role: null,
    stage: null,
    owner_user_id: null,
    visibility: 'public',
    ...extra,
  };
}

useRunDatabase(
  (opened) => {
    db = opened;
    evaluations = new EvaluationRepository(db);
  },
  {
    teardown: async () => {
      await deleteFixtures(db, { configIds: [configId] });
      if (scoringId !== undefined) await new ScoringConfigRepository(db).delete(scoringId);
    },
  },
);

beforeAll(async () => {
  ({ id: snapshotId, oboVersion } = await insertSnapshot(
    db,
    goRelease([
      ['GO:0000001', 'F'],
      ['GO:0000002', 'P'],
      ['GO:0000003', 'C'],
    ]),
  ));
  oldSetId = await insertAnnotationSet(db, snapshotId, [], 'goa', '2023-01');
  newSetId = await insertAnnotationSet(db, snapshotId, [], 'goa', '2024-01');

  const protein = (accession: string, sequence: string, organism: string | null) =>
    proteinEntry(accession, sequence, {
      entryName: `${accession}_ENTRY`,
      organism,
      taxonomyId: organism === null ? null : '9606',
      length: sequence.length,
      reviewed: true,
    });
  await new ProteinRepository(db).storeWithSequences([
    protein(P1, `MA${tag}`, 'Homo sapiens'),
    protein(P2, `MB${tag}`, null),
    protein(P4, `MD${tag}`, 'Homo sapiens'),
  ]);

  configId = await saveEmbeddingConfig(db, { model_name: `kmer-${tag}` });
  scoringName = `scoring-${tag}`;
  scoringId = (
    await new ScoringConfigRepository(db).create({
      name: scoringName,
      weights: {
        ...(Object.fromEntries(SCORING_SIGNALS.map((s) => [s, 0])) as ScoringWeights),
        prediction_score: 1,
      },
      description: null,
    })
  ).id;
});

describe('EvaluationRepository: evaluation sets', () => {
  let setId: string;

  beforeAll(async () => {
    setId = await evaluations.createSet(newSet(), GROUND_TRUTH);
  });

  it('createSet stores the set; findSet and getSet read it back', async () => {
    const set = await evaluations.findSet(setId);
    expect(set).toEqual({
      ...newSet(),
      id: setId,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    });
    expect(await evaluations.getSet(setId)).toEqual(set);
  });

  it('findSet gives null, getSet, summary and deleteSet a not_found error, for an unknown set', async () => {
    expect(await evaluations.findSet(randomUUID())).toBeNull();
    for (const call of [
      () => evaluations.getSet(randomUUID()),
      () => evaluations.summary(randomUUID()),
      () => evaluations.deleteSet(randomUUID()),
    ])
      expect(await domainError(call())).toMatchObject({
        code: 'not_found',
        message: 'Evaluation set not found',
      });
  });

  it('groundTruth gives a category’s rows by protein and GO id, a repeated row once', async () => {
    expect(await evaluations.groundTruth(setId, 'NK')).toEqual([
      { category: 'NK', protein_accession: P1, go_id: 'GO:0000001', aspect: 'F' },
      { category: 'NK', protein_accession: P1, go_id: 'GO:0000002', aspect: 'P' },
      { category: 'NK', protein_accession: P3, go_id: 'GO:0000001', aspect: 'F' },
    ]);
    expect(await evaluations.groundTruth(setId, 'KNOWN')).toEqual([
      { category: 'KNOWN', protein_accession: P4, go_id: 'GO:0000001', aspect: 'F' },
    ]);
    expect(await evaluations.groundTruth(randomUUID(), 'NK')).toEqual([]);
  });

  it('proteinsOfCategories gives the proteins with ground truth of these categories', async () => {
    expect(await evaluations.proteinsOfCategories(setId, ['NK', 'LK'])).toEqual(new Set([P1, P2, P3]));
    expect(await evaluations.proteinsOfCategories(setId, ['PK'])).toEqual(new Set([P4]));
    expect(await evaluations.proteinsOfCategories(setId, [])).toEqual(new Set());
  });

  it('deltaProteins gives each stored protein of these categories once, with its sequence', async () => {
    expect(await evaluations.deltaProteins(setId, ['NK', 'LK'])).toEqual([
      // In both categories: the first by name.
      {
        accession: P1,
        category: 'LK',
        entry_name: `${P1}_ENTRY`,
        organism: 'Homo sapiens',
        taxonomy_id: '9606',
        sequence: `MA${tag}`,
      },
      {
        accession: P2,
        category: 'LK',
        entry_name: `${P2}_ENTRY`,
        organism: null,
        taxonomy_id: null,
        sequence: `MB${tag}`,
      },
    ]);
    expect((await evaluations.deltaProteins(setId, ['PK'])).map((p) => p.accession)).toEqual([P4]);
  });

  it('createSet writes nothing when a ground-truth row cannot be stored', async () => {
    const from = await insertAnnotationSet(db, snapshotId, [], 'goa', 'broken');
    await expect(
      evaluations.createSet(newSet({ old_annotation_set_id: from }), [
        GROUND_TRUTH[0]!,
        { ...GROUND_TRUTH[1]!, category: 'XX' as GroundTruthRow['category'] },
      ]),
    ).rejects.toThrow(/evaluation_ground_truth_category_check/);
    expect(await evaluations.newestSetFrom(from)).toBeNull();
  });

  it('newestSetFrom gives the newest set whose older release is this annotation set', async () => {
    const newer = await evaluations.createSet(newSet({ evidence: 'all' }), []);
    expect(await evaluations.newestSetFrom(oldSetId)).toBe(newer);
    expect(await evaluations.newestSetFrom(newSetId)).toBeNull();
    expect(await evaluations.deleteSet(newer)).toEqual({
      deleted: true,
      results_deleted: 0,
      artifact_keys: [],
    });
    expect(await evaluations.newestSetFrom(oldSetId)).toBe(setId);
  });

  it('summary and listSets give the set with its labels and result count, newest first', async () => {
    const summary = await evaluations.summary(setId);
    expect(summary).toEqual({
      ...(await evaluations.getSet(setId)),
      ontology_version: oboVersion,
      old_annotation_set_label: 'goa 2023-01',
      new_annotation_set_label: 'goa 2024-01',
      result_count: 0,
    });
    const later = await evaluations.createSet(newSet(), []);
    await evaluations.createResult(result(later));
    const listed = await evaluations.listSets();
    const ids = listed.map((s) => s['id']);
    expect(ids.indexOf(later)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(later)).toBeLessThan(ids.indexOf(setId));
    expect(listed.find((s) => s['id'] === setId)).toEqual(summary);
    expect(listed.find((s) => s['id'] === later)).toMatchObject({ result_count: 1 });
    await evaluations.deleteSet(later);
  });

  it("counts the results a list scope may see: a public count leaves others' private results out", async () => {
    const counted = await evaluations.createSet(newSet(), []);
    const alice = randomUUID();
    await evaluations.createResult(result(counted));
    await evaluations.createResult(result(counted, { visibility: 'owner', owner_user_id: alice }));
    await evaluations.createResult(result(counted, { visibility: 'unlisted', owner_user_id: alice }));
    const count = async (scope?: Parameters<typeof evaluations.summary>[1]) => ({
      summary: (await evaluations.summary(counted, scope))['result_count'],
      listed: (await evaluations.listSets(scope)).find((s) => s['id'] === counted)?.['result_count'],
    });
    expect(await count()).toEqual({ summary: 3, listed: 3 });
    expect(await count({ kind: 'all' })).toEqual({ summary: 3, listed: 3 });
    expect(await count({ kind: 'public_and_own', userId: null })).toEqual({ summary: 1, listed: 1 });
    expect(await count({ kind: 'public_and_own', userId: alice })).toEqual({ summary: 2, listed: 2 });
    expect(await count({ kind: 'own', userId: alice })).toEqual({ summary: 1, listed: 1 });
    await evaluations.deleteSet(counted);
  });
});

describe('EvaluationRepository: results', () => {
  let setId: string;

  beforeAll(async () => {
    setId = await evaluations.createSet(newSet(), GROUND_TRUTH.slice(0, 3));
  });

  it('createResult stores a result; findResult reads it in its own set only; updateResult fills the outcome', async () => {
    const owner = randomUUID();
    const id = await evaluations.createResult(
      result(setId, {
        scoring_config_id: scoringId,
        rerankers: { NK: { F: randomUUID() } },
        band: 'mid',
        max_terms: 50,
        stage: scoringName,
        owner_user_id: owner,
      }),
    );
    const found = await evaluations.findResult(setId, id);
    expect(found).toEqual({
      ...result(setId, {
        scoring_config_id: scoringId,
        rerankers: found!['rerankers'] as object,
        band: 'mid',
        max_terms: 50,
        stage: scoringName,
        owner_user_id: owner,
      }),
      id,
      metrics: {},
      artifact_prefix: null,
      artifact_keys: [],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    });
    expect(found!['rerankers']).toEqual({ NK: { F: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    expect(await evaluations.findResult(randomUUID(), id)).toBeNull();
    expect(await evaluations.findResult(setId, randomUUID())).toBeNull();

    const metrics = { NK: { F: { fmax: 0.5, threshold: 0.25 } } };
    await evaluations.updateResult(id, {
      metrics,
      artifact_prefix: `evaluations/${id}/`,
      artifact_keys: [`evaluations/${id}/NK_F.tsv`, `evaluations/${id}/metrics.json`],
    });
    expect(await evaluations.findResult(setId, id)).toMatchObject({
      metrics,
      artifact_prefix: `evaluations/${id}/`,
      artifact_keys: [`evaluations/${id}/NK_F.tsv`, `evaluations/${id}/metrics.json`],
    });
  });

  it('listResults shows what a scope may see (published to everyone), newest first, with the scoring config’s name', async () => {
    const alice = randomUUID();
    const bob = randomUUID();
    const make = (owner: string | null, visibility: Visibility, extra: Record<string, unknown> = {}) =>
      evaluations.createResult(result(setId, { owner_user_id: owner, visibility, ...extra }));
    const alicePublic = await make(alice, 'public', { scoring_config_id: scoringId });
    const aliceOwner = await make(alice, 'owner');
    const aliceUnlisted = await make(alice, 'unlisted');
    const bobOwner = await make(bob, 'owner');
    const ours = [alicePublic, aliceOwner, aliceUnlisted, bobOwner];
    const visible = async (scope: Parameters<EvaluationRepository['listResults']>[1]) =>
      (await evaluations.listResults(setId, scope)).map((r) => r['id']).filter((id) => ours.includes(id));

    expect(await visible({ kind: 'all' })).toEqual([bobOwner, aliceUnlisted, aliceOwner, alicePublic]);
    expect(await visible({ kind: 'public_and_own', userId: null })).toEqual([alicePublic]);
    expect(await visible({ kind: 'public_and_own', userId: bob })).toEqual([bobOwner, alicePublic]);
    expect(await visible({ kind: 'own', userId: alice })).toEqual([aliceOwner, alicePublic]);

    const listed = await evaluations.listResults(setId, { kind: 'all' });
    expect(listed.find((r) => r['id'] === alicePublic)).toEqual({
      ...(await evaluations.findResult(setId, alicePublic)),
      scoring_config_name: scoringName,
      // No prediction set behind this result: nothing to name.
      prediction_set_label: null,
    });
    expect(listed.find((r) => r['id'] === aliceOwner)).toMatchObject({ scoring_config_name: null });
    expect(await evaluations.listResults(randomUUID(), { kind: 'all' })).toEqual([]);
  });

  it('embeddingsWithPublicResults and allResults count and list published results only', async () => {
    const ownConfig = await saveEmbeddingConfig(db, { model_name: `kmer-${tag}-own` });
    const privateOnly = await saveEmbeddingConfig(db, { model_name: `kmer-${tag}-private` });
    try {
      const first = await evaluations.createResult(
        result(setId, { embedding_config_id: ownConfig, scoring_config_id: scoringId }),
      );
      const second = await evaluations.createResult(result(setId, { embedding_config_id: ownConfig }));
      const hidden = await evaluations.createResult(
        result(setId, { embedding_config_id: ownConfig, visibility: 'owner', owner_user_id: randomUUID() }),
      );
      await evaluations.createResult(
        result(setId, { embedding_config_id: privateOnly, visibility: 'unlisted' }),
      );

      const models = await evaluations.embeddingsWithPublicResults();
      expect(models.filter((m) => m.id === ownConfig || m.id === privateOnly)).toEqual([
        { id: ownConfig, model_name: `kmer-${tag}-own`, model_backend: 'kmer', results: 2 },
      ]);

      const all = await evaluations.allResults();
      const ids = all.map((r) => r['id']);
      expect(ids).not.toContain(hidden);
      expect(ids.indexOf(first)).toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
      expect(all.find((r) => r['id'] === first)).toEqual({
        ...(await evaluations.findResult(setId, first)),
        scoring_config_name: scoringName,
        embedding_model_name: `kmer-${tag}-own`,
        // The method of its prediction set (none here): the benchmark matrix's row.
        search_backend: null,
        blend_version: null,
      });
    } finally {
      await deleteFixtures(db, { configIds: [ownConfig, privateOnly] });
    }
  });

  it('deleteResult removes a result of the set and returns its artifact keys; else not_found', async () => {
    const id = await evaluations.createResult(result(setId));
    await evaluations.updateResult(id, {
      metrics: {},
      artifact_prefix: 'p/',
      artifact_keys: ['p/a.tsv', 'p/b.tsv'],
    });
    expect(await domainError(evaluations.deleteResult(randomUUID(), id))).toMatchObject({
      code: 'not_found',
      message: 'Evaluation result not found',
    });
    expect(await evaluations.deleteResult(setId, id)).toEqual(['p/a.tsv', 'p/b.tsv']);
    expect(await evaluations.findResult(setId, id)).toBeNull();
    expect(await domainError(evaluations.deleteResult(setId, id))).toMatchObject({ code: 'not_found' });
  });

  it('deleteSet removes the set, its ground truth and results, and returns every result’s artifact keys', async () => {
    const doomed = await evaluations.createSet(newSet(), GROUND_TRUTH.slice(0, 2));
    const a = await evaluations.createResult(result(doomed));
    const b = await evaluations.createResult(result(doomed, { visibility: 'owner' }));
    await evaluations.createResult(result(doomed));
    await evaluations.updateResult(a, { metrics: {}, artifact_prefix: 'a/', artifact_keys: ['a/1', 'a/2'] });
    await evaluations.updateResult(b, { metrics: {}, artifact_prefix: 'b/', artifact_keys: ['b/1'] });

    const deleted = await evaluations.deleteSet(doomed);
    expect(deleted).toMatchObject({ deleted: true, results_deleted: 3 });
    expect([...deleted.artifact_keys].sort()).toEqual(['a/1', 'a/2', 'b/1']);
    expect(await evaluations.findSet(doomed)).toBeNull();
    expect(await evaluations.groundTruth(doomed, 'NK')).toEqual([]);
    expect(await evaluations.findResult(doomed, a)).toBeNull();
    // The other set keeps its ground truth.
    expect(await evaluations.groundTruth(setId, 'NK')).toHaveLength(3);
  });
});
