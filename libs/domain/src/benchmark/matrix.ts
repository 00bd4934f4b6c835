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

export type PrimaryMetric = 'f_micro_w' | 'fmax';

export interface MatrixCell {
  embedding: string;
  embedding_label: string;
  stage: string;
  stage_label: string;
  /**
   * The one metric every value of the cell is: `f_micro_w` when any of its results was weighted
   * with an IA file, else `fmax` (legacy rows without IA).
   */
  primary_metric: PrimaryMetric;
  tasks: Record<string, Record<string, MeanCi>>;
  per_task: MeanCi;
  /** Results whose values make up the cell. */
  results: number;
  /** Results of this embedding and stage left out: they hold no value of `primary_metric`. */
  excluded_results: number;
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

/** The result's value of `metric` for one task, if it has one. */
function taskValue(
  result: MatrixResult,
  category: string,
  aspect: string,
  metric: PrimaryMetric,
): number | null {
  const value = result.metrics[category]?.[aspect]?.[metric];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function hasMetric(result: MatrixResult, metric: PrimaryMetric, config: BenchmarkConfig): boolean {
  return config.categories.some((category) =>
    config.aspects.some((aspect) => taskValue(result, category, aspect, metric) !== null),
  );
}

/**
 * The benchmark matrix: one cell per (embedding, stage) over every result with a stage (results
 * with neither a re-ranker nor a scoring config are left out). A cell is computed from one metric
 * only, never a mix: `f_micro_w` when any of its results has it, and then results without IA
 * weights are left out of the cell (counted in `excluded_results`); `fmax` when none has it. Each
 * task (category x aspect) is the mean over the cell's results with its 95% interval; `per_task` is
 * the mean over the task means. A cell left with no value at all is not shown.
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
    const metric: PrimaryMetric = list.some((r) => hasMetric(r, 'f_micro_w', config)) ? 'f_micro_w' : 'fmax';
    const members = list.filter((r) => hasMetric(r, metric, config));
    if (members.length === 0) continue;
    const tasks: Record<string, Record<string, MeanCi>> = {};
    const taskMeans: number[] = [];
    for (const category of config.categories) {
      for (const aspect of config.aspects) {
        const values = members
          .map((r) => taskValue(r, category, aspect, metric))
          .filter((v): v is number => v !== null);
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
      primary_metric: metric,
      tasks,
      per_task: meanCi(taskMeans),
      results: members.length,
      excluded_results: list.length - members.length,
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
