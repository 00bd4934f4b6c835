import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPORT_RESEARCH_DATASET, ExportResearchDatasetPayload } from '@svc/contracts';
import { defineOperation } from '@svc/jobs';
import { computeDeltas } from './export/export-deltas';
import { planExport } from './export/export-plan';
import { publishDataset } from './export/export-publish';
import { writeTables } from './export/export-tables';

/**
 * Freezes a re-ranker training set: for every snapshot pair, the proteins that gained experimental
 * annotations between the two releases are predicted by nearest-neighbour transfer from the older
 * release (the same code path as predict_go_terms) and each transferred term is labelled by whether
 * the newer release confirms it (or a descendant of it). Train pairs go to train.parquet, the
 * evaluation pair to eval.parquet; manifest.json describes both, and its sha256 is stored with the
 * Dataset row. Four stages: plan, holdout deltas, tables, publish.
 */
export const exportResearchDatasetOperation = defineOperation<ExportResearchDatasetPayload>({
  spec: EXPORT_RESEARCH_DATASET,
  async execute(context) {
    const started = process.hrtime.bigint();
    const plan = await planExport(context.repos, context.payload);
    const deltas = await computeDeltas(context.repos, plan, context.emit);
    const folder = await mkdtemp(join(tmpdir(), 'svc-dataset-'));
    try {
      const tables = await writeTables(context, plan, deltas, folder);
      const published = await publishDataset(context, plan, deltas, tables);
      await context.emit('export_research_dataset.published', null, {
        dataset_id: published['dataset_id'],
        train_uri: published['train_uri'],
        eval_uri: published['eval_uri'],
        manifest_uri: published['manifest_uri'],
        manifest_sha: published['manifest_sha'],
        elapsed_s: Number((Number(process.hrtime.bigint() - started) / 1e9).toFixed(3)),
      });
      return published;
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  },
});
