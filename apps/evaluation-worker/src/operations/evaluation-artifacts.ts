import { CafaEvaluation, CafaPrediction } from '@svc/domain';
import { GroundTruthRow } from '@svc/persistence';
import { ArtifactStore } from '@svc/platform';

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean')
    return String(value);
  return JSON.stringify(value);
}

function tsv(header: string[], rows: unknown[][]): string {
  return [header.join('\t'), ...rows.map((r) => r.map(cell).join('\t'))].join('\n').concat('\n');
}

/**
 * Writes one evaluation's outputs under `eval_artifacts/<result_id>/`: per category the evaluator's
 * per-threshold table, its best rows, and the exact inputs (ground truth, predictions, known terms),
 * then a summary. Returns the keys written, which the result row keeps for deletion.
 */
export function evaluationArtifacts(store: ArtifactStore, resultId: string) {
  const prefix = `eval_artifacts/${resultId}/`;
  const keys: string[] = [];
  const put = async (name: string, body: string): Promise<void> => {
    await store.put(prefix + name, body);
    keys.push(prefix + name);
  };
  return {
    prefix,
    async writeCategory(
      category: string,
      input: {
        evaluation: CafaEvaluation;
        truth: GroundTruthRow[];
        predictions: CafaPrediction[];
        known: { protein: string; term: string }[] | null;
      },
    ): Promise<void> {
      const dir = category.toLowerCase();
      const all: unknown[][] = [];
      let columns: string[] | null = null;
      for (const [namespace, rows] of Object.entries(input.evaluation.rows)) {
        for (const row of rows) {
          columns ??= Object.keys(row);
          all.push([namespace, ...columns.map((c) => (row as unknown as Record<string, unknown>)[c])]);
        }
      }
      await put(`${dir}/evaluation_all.tsv`, tsv(['ns', ...(columns ?? ['tau'])], all));
      await put(`${dir}/evaluation_best.json`, JSON.stringify(input.evaluation.namespaces, null, 2));
      await put(
        `${dir}/ground_truth.tsv`,
        tsv(
          ['protein', 'go_id', 'aspect'],
          input.truth.map((t) => [t.protein_accession, t.go_id, t.aspect]),
        ),
      );
      await put(
        `${dir}/predictions.tsv`,
        tsv(
          ['protein', 'go_id', 'score'],
          input.predictions.map((p) => [p.protein, p.term, p.score]),
        ),
      );
      if (input.known !== null)
        await put(
          `${dir}/known.tsv`,
          tsv(
            ['protein', 'go_id'],
            input.known.map((k) => [k.protein, k.term]),
          ),
        );
    },
    async finish(summary: Record<string, unknown>): Promise<string[]> {
      await put('summary.json', JSON.stringify(summary, null, 2));
      return [...keys];
    },
  };
}
