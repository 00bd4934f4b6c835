/** The optional benchmark config file, with every key's default. */
export interface BenchmarkConfig {
  preferred_stages: string[];
  baseline_scoring: string | null;
  hidden_stages: string[];
  hidden_embeddings: string[];
  stage_labels: Record<string, string>;
  evaluation_set_labels: Record<string, string>;
  categories: string[];
  aspects: string[];
}

export const DEFAULT_BENCHMARK_CONFIG: BenchmarkConfig = {
  preferred_stages: [],
  baseline_scoring: null,
  hidden_stages: [],
  hidden_embeddings: [],
  stage_labels: {},
  evaluation_set_labels: {},
  categories: ['NK', 'LK', 'PK'],
  aspects: ['BPO', 'MFO', 'CCO'],
};

const strings = (value: unknown, fallback: string[]): string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : fallback;

const labels = (value: unknown): Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {};

/** Reads a parsed YAML/JSON object; missing or malformed keys take their defaults. */
export function parseBenchmarkConfig(raw: unknown): BenchmarkConfig {
  if (typeof raw !== 'object' || raw === null) return { ...DEFAULT_BENCHMARK_CONFIG };
  const r = raw as Record<string, unknown>;
  return {
    preferred_stages: strings(r['preferred_stages'], []),
    baseline_scoring: typeof r['baseline_scoring'] === 'string' ? r['baseline_scoring'] : null,
    hidden_stages: strings(r['hidden_stages'], []),
    hidden_embeddings: strings(r['hidden_embeddings'], []),
    stage_labels: labels(r['stage_labels']),
    evaluation_set_labels: labels(r['evaluation_set_labels']),
    categories: strings(r['categories'], DEFAULT_BENCHMARK_CONFIG.categories),
    aspects: strings(r['aspects'], DEFAULT_BENCHMARK_CONFIG.aspects),
  };
}

/** A stage's label: the configured one, else the stage name title-cased (`knn_baseline` -> `Knn Baseline`). */
export function stageLabel(config: BenchmarkConfig, stage: string): string {
  return (
    config.stage_labels[stage] ??
    stage
      .split(/[_\s-]+/)
      .filter((w) => w.length > 0)
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join(' ')
  );
}
