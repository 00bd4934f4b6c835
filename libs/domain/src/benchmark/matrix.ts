import { BenchmarkConfig, stageLabel } from './benchmark-config';

/** What the matrix needs of one evaluation result. */
export interface MatrixResult {
  embedding: string;
  embeddingLabel: string;
  stage: string | null;
  evaluationSetId: string;
  /** metrics[category][aspect] -> persisted keys (f_micro_w, fmax, ...). */
  metrics: Record<string, Record<string, Record<string, unknown>>>;
}

export interface MeanCi {
  mean: number;
  ci95: number;
  n: number;
}

export interface MatrixCell {
  embedding: string;
  embedding_label: string;
  stage: string;
  stage_label: string;
  /** `f_micro_w` when every value had IA weights, else `fmax` (legacy rows). */
  primary_metric: 'f_micro_w' | 'fmax';
  tasks: Record<string, Record<string, MeanCi>>;
  per_task: MeanCi;
  results: number;
}

/** Mean and 95% interval 1.96 * sample sd / sqrt(n) (0 for one value). */
export function meanCi(values: readonly number[]): MeanCi {
  const n = values.length;
  if (n === 0) return { mean: 0, ci95: 0, n: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { mean, ci95: 0, n };
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  return { mean, ci95: (1.96 * Math.sqrt(variance)) / Math.sqrt(n), n };
}

/**
 * The benchmark matrix: one cell per (embedding, stage) over every result with a stage (results
 * with neither a re-ranker nor a scoring config are left out). Each task (category x aspect) is
 * ranked by `f_micro_w`, falling back to `fmax` for rows without IA; `per_task` is the mean over
 * the cell's task means with its 95% interval.
 */
export function benchmarkMatrix(results: readonly MatrixResult[], config: BenchmarkConfig): MatrixCell[] {
  const groups = new Map<string, MatrixResult[]>();
  for (const r of results) {
    if (r.stage === null || config.hidden_stages.includes(r.stage)) continue;
    if (config.hidden_embeddings.includes(r.embedding) || config.hidden_embeddings.includes(r.embeddingLabel))
      continue;
    const key = `${r.embedding}\u0000${r.stage}`;
    let list = groups.get(key);
    if (list === undefined) groups.set(key, (list = []));
    list.push(r);
  }
  const cells: MatrixCell[] = [];
  for (const list of groups.values()) {
    const first = list[0]!;
    let weighted = true;
    const tasks: Record<string, Record<string, MeanCi>> = {};
    const taskMeans: number[] = [];
    for (const category of config.categories) {
      for (const aspect of config.aspects) {
        const values: number[] = [];
        for (const r of list) {
          const m = r.metrics[category]?.[aspect];
          if (m === undefined) continue;
          const w = m['f_micro_w'];
          if (typeof w === 'number') values.push(w);
          else if (typeof m['fmax'] === 'number') {
            weighted = false;
            values.push(m['fmax']);
          }
        }
        if (values.length === 0) continue;
        const summary = meanCi(values);
        (tasks[category] ??= {})[aspect] = summary;
        taskMeans.push(summary.mean);
      }
    }
    cells.push({
      embedding: first.embedding,
      embedding_label: first.embeddingLabel,
      stage: first.stage!,
      stage_label: stageLabel(config, first.stage!),
      primary_metric: weighted ? 'f_micro_w' : 'fmax',
      tasks,
      per_task: meanCi(taskMeans),
      results: list.length,
    });
  }
  const order = (stage: string): number => {
    const i = config.preferred_stages.indexOf(stage);
    return i === -1 ? config.preferred_stages.length : i;
  };
  return cells.sort(
    (a, b) =>
      order(a.stage) - order(b.stage) ||
      a.stage.localeCompare(b.stage) ||
      a.embedding_label.localeCompare(b.embedding_label),
  );
}
