import {
  BenchmarkMatrix,
  EvaluationResult,
  EvaluationSetSummary,
  MatrixCell,
  MetricBlock,
  TaskScore,
} from '../api';
import { Heatmap, HeatCell } from '../charts';
import { useApi, useDocumentTitle, useList, useRoute } from '../hooks';
import {
  Column,
  Download,
  EmptyState,
  ErrorNotice,
  Fields,
  FilterBar,
  fmtDate,
  fmtNum,
  Link,
  ListView,
  Loading,
  OntologyLink,
  PageHeader,
  QueryFilter,
  shortId,
  Table,
} from '../ui';

const CATEGORIES = ['NK', 'LK', 'PK'];
const ASPECTS = ['BPO', 'MFO', 'CCO'];

export function EvaluationSetsPage() {
  useDocumentTitle('Evaluation sets');
  const list = useList<EvaluationSetSummary>('/annotations/evaluation-sets');
  const columns: Column<EvaluationSetSummary>[] = [
    {
      header: 'Evaluation set',
      cell: (s) => (
        <>
          <Link to={`/evaluation-sets/${s.id}`}>{evaluationSetName(s)}</Link>{' '}
          <span className="muted small">{shortId(s.id)}</span>
        </>
      ),
    },
    { header: 'Reference (t0)', cell: (s) => s.old_annotation_set_label ?? shortId(s.old_annotation_set_id) },
    {
      header: 'Ground truth (t1)',
      cell: (s) => s.new_annotation_set_label ?? shortId(s.new_annotation_set_id),
    },
    { header: 'NK', cell: (s) => fmtNum(s.stats['nk_proteins']), numeric: true },
    { header: 'LK', cell: (s) => fmtNum(s.stats['lk_proteins']), numeric: true },
    { header: 'PK', cell: (s) => fmtNum(s.stats['pk_proteins']), numeric: true },
    { header: 'Results', cell: (s) => fmtNum(s.result_count), numeric: true },
    { header: 'Created', cell: (s) => fmtDate(s.created_at) },
  ];
  return (
    <>
      <PageHeader title="Evaluation sets" />
      <ListView list={list} what="evaluation sets" columns={columns} rowKey={(s) => s.id} />
    </>
  );
}

/** An evaluation set by name: the annotations it compares, t0 to t1. */
function evaluationSetName(s: EvaluationSetSummary): string {
  return `${s.old_annotation_set_label ?? shortId(s.old_annotation_set_id)} → ${
    s.new_annotation_set_label ?? shortId(s.new_annotation_set_id)
  }`;
}

/** What the numbers of a result's table are, in words: its headline metric and what `n` counts. */
function metricLegend(result: EvaluationResult): string {
  const weighted = CATEGORIES.some((c) => ASPECTS.some((a) => result.metrics[c]?.[a]?.['f_micro_w'] != null));
  return weighted
    ? 'Each cell: F-max weighted by information accretion (f_micro_w: IA-weighted precision and recall, micro-averaged over proteins, at the threshold that maximises F), the number of proteins evaluated (n), and the IA-weighted area under the precision-recall curve.'
    : 'Each cell: F-max (unweighted precision and recall, averaged over proteins, at the threshold that maximises F), the number of proteins evaluated (n), and the area under the precision-recall curve.';
}

/** The headline score of one (category, aspect): weighted F when an IA file was used, else Fmax. */
function headline(block: MetricBlock | undefined): { value: number | undefined; metric: string } {
  if (!block) return { value: undefined, metric: '' };
  if (block['f_micro_w'] != null) return { value: block['f_micro_w'], metric: 'F (IA-weighted)' };
  return { value: block['fmax'] ?? undefined, metric: 'Fmax' };
}

/** Area under the precision-recall curve, weighted like the headline (absent on older results). */
function areaUnderCurve(block: MetricBlock | undefined): { value: number | undefined; metric: string } {
  if (block?.['f_micro_w'] != null)
    return { value: block['auprc_w'] ?? undefined, metric: 'AUPRC (IA-weighted)' };
  return { value: block?.['auprc'] ?? undefined, metric: 'AUPRC' };
}

function MetricsTable({ result }: { result: EvaluationResult }) {
  const rows = CATEGORIES.filter((c) => result.metrics[c] !== undefined);
  if (rows.length === 0) return <p className="empty">No metrics stored for this result.</p>;
  return (
    <>
      <p className="muted small" data-testid="metric-legend">
        {metricLegend(result)}
      </p>
      <Table
        caption={`${headline(firstBlock(result)).metric || 'Scores'} of result ${shortId(result.id)} by category and aspect`}
        columns={[
          { header: 'Category', cell: (c: string) => <strong>{c}</strong> },
          ...ASPECTS.map((a) => ({
            header: a,
            numeric: true,
            cell: (c: string) => {
              const block = result.metrics[c]?.[a];
              const { value, metric } = headline(block);
              if (value === undefined) return '—';
              const area = areaUnderCurve(block);
              return (
                <span
                  title={`${metric}; precision ${fmtNum(block?.['precision'])}, recall ${fmtNum(block?.['recall'])}, coverage ${fmtNum(block?.['coverage'])}, n ${fmtNum(block?.['n'])}; ${area.metric} ${fmtNum(area.value)}`}
                >
                  {fmtNum(value)}
                  <span className="muted small"> (n {fmtNum(block?.['n'])})</span>
                  {area.value !== undefined && (
                    <span className="muted small">
                      <br />
                      {area.metric} {fmtNum(area.value)}
                    </span>
                  )}
                </span>
              );
            },
          })),
        ]}
        rows={rows}
        rowKey={(c) => c}
      />
    </>
  );
}

function firstBlock(result: EvaluationResult): MetricBlock | undefined {
  for (const c of CATEGORIES)
    for (const a of ASPECTS) if (result.metrics[c]?.[a]) return result.metrics[c]?.[a];
  return undefined;
}

export function EvaluationSetPage({ id }: { id: string }) {
  const set = useApi<EvaluationSetSummary>(`/annotations/evaluation-sets/${id}`);
  const results = useList<EvaluationResult>(`/annotations/evaluation-sets/${id}/results`);
  useDocumentTitle(
    set.data ? `Evaluation set ${evaluationSetName(set.data)}` : `Evaluation set ${shortId(id)}`,
  );
  if (set.error) return <ErrorNotice error={set.error} />;
  if (!set.data) return <Loading what="the evaluation set" />;
  const s = set.data;
  const base = `/annotations/evaluation-sets/${id}`;
  return (
    <>
      <PageHeader title={`Evaluation set ${evaluationSetName(s)}`} />
      <Fields
        entries={[
          ['Reference (t0)', s.old_annotation_set_label ?? s.old_annotation_set_id],
          ['Ground truth (t1)', s.new_annotation_set_label ?? s.new_annotation_set_id],
          ['Ontology', <OntologyLink key="o" id={s.ontology_snapshot_id} version={s.ontology_version} />],
          ['Created', fmtDate(s.created_at)],
          ['Evaluation set id', <code key="id">{s.id}</code>],
        ]}
      />
      <Table
        caption="Delta proteins and annotations per category"
        columns={[
          { header: 'Category', cell: (c: string) => c.toUpperCase() },
          { header: 'Proteins', cell: (c: string) => fmtNum(s.stats[`${c}_proteins`]), numeric: true },
          { header: 'Annotations', cell: (c: string) => fmtNum(s.stats[`${c}_annotations`]), numeric: true },
        ]}
        rows={['nk', 'lk', 'pk', 'delta']}
        rowKey={(c) => c}
      />
      <p className="downloads">
        {CATEGORIES.map((c) => (
          <Download key={c} path={`${base}/ground-truth-${c}.tsv`}>
            Ground truth {c}
          </Download>
        ))}
        <Download path={`${base}/known-terms.tsv`}>Known terms</Download>
        <Download path={`${base}/delta-proteins.fasta?category=all`}>Delta proteins (FASTA)</Download>
      </p>
      <section aria-labelledby="results-heading">
        <h2 id="results-heading">Results</h2>
        {results.error && <ErrorNotice error={results.error} />}
        {results.loading && <Loading what="results" />}
        {!results.loading && results.items.length === 0 && <EmptyState list={results} what="results" />}
        {results.items.map((r) => (
          <article key={r.id} className="card" aria-labelledby={`result-${r.id}`}>
            <h3 id={`result-${r.id}`}>
              {r.prediction_set_label ?? `Result ${shortId(r.id)}`}: {r.stage ?? 'no stage'}
            </h3>
            <p className="muted">
              Predictions{' '}
              <Link to={`/prediction-sets/${r.prediction_set_id}`}>
                {r.prediction_set_label ?? shortId(r.prediction_set_id)}
              </Link>
              {r.scoring_config_name && <> · scoring {r.scoring_config_name}</>}
              {r.reranker_model_id && <> · re-ranker {shortId(r.reranker_model_id)}</>}
              {r.band && <> · band {r.band}</>} · {fmtDate(r.created_at)} · result {shortId(r.id)}
            </p>
            <MetricsTable result={r} />
            <p className="downloads">
              <Download path={`${base}/results/${r.id}/metrics.tsv`}>Metrics (TSV)</Download>
              {(r.artifact_keys?.length ?? 0) > 0 && (
                <Download path={`${base}/results/${r.id}/artifacts.zip`}>Evaluator outputs (ZIP)</Download>
              )}
            </p>
          </article>
        ))}
      </section>
    </>
  );
}

const PER_TASK = 'per_task';

function taskScore(cell: MatrixCell, task: string): TaskScore | undefined {
  if (task === PER_TASK) return cell.per_task;
  const [category = '', aspect = ''] = task.split('/');
  return cell.tasks[category]?.[aspect];
}

export function BenchmarkPage() {
  useDocumentTitle('Benchmark matrix');
  const route = useRoute();
  const stage = route.query.get('stage') ?? '';
  const embedding = route.query.get('embedding') ?? '';
  const task = route.query.get('task') ?? PER_TASK;
  const matrix = useApi<BenchmarkMatrix>('/benchmark/matrix');
  if (matrix.error) return <ErrorNotice error={matrix.error} />;
  if (!matrix.data) return <Loading what="the benchmark matrix" />;
  const m = matrix.data;
  const cells = m.cells.filter(
    (c) => (stage === '' || c.stage === stage) && (embedding === '' || c.embedding === embedding),
  );
  const embeddings = [...new Map(m.cells.map((c) => [c.embedding, c.embedding_label])).entries()];
  const stages = [...new Map(m.cells.map((c) => [c.stage, c.stage_label])).entries()];
  const rows = embeddings
    .filter(([key]) => embedding === '' || key === embedding)
    .map(([key, label]) => ({ key, label }));
  const columns = stages
    .filter(([key]) => stage === '' || key === stage)
    .map(([key, label]) => ({ key, label }));
  const categories = m.categories.length > 0 ? m.categories : CATEGORIES;
  const aspects = m.aspects.length > 0 ? m.aspects : ASPECTS;
  const tasks = categories.flatMap((c) => aspects.map((a) => `${c}/${a}`));
  const heat: HeatCell[] = cells.map((c) => {
    const score = taskScore(c, task);
    return {
      row: c.embedding,
      column: c.stage,
      value: score?.mean,
      detail: `${c.embedding_label}, ${c.stage_label}: ${fmtNum(score?.mean)} ± ${fmtNum(score?.ci95)} (n ${score?.n ?? 0})`,
    };
  });
  const taskLabel = task === PER_TASK ? 'mean over tasks' : task;
  return (
    <>
      <PageHeader title="Benchmark matrix" />
      <p>
        Each cell is a method (DIAMOND with its blend version, or an embedding searched by nearest neighbours)
        and a stage (scoring config or re-ranker), scored by the weighted F when an IA file was used and by
        Fmax otherwise, over every evaluation result of that pair.
      </p>
      <FilterBar label="Filter the benchmark matrix">
        <QueryFilter label="Stage" name="stage" anyLabel="all stages" options={stages} />
        <QueryFilter label="Method" name="embedding" anyLabel="all methods" options={embeddings} />
        <QueryFilter
          label="Task"
          name="task"
          anyLabel="mean over tasks"
          anyValue={PER_TASK}
          options={tasks}
        />
      </FilterBar>
      {cells.length === 0 ? (
        <p className="empty">No evaluation results with a stage yet.</p>
      ) : (
        <>
          <Heatmap
            title={`Score per method (rows) and stage (columns): ${taskLabel}`}
            rows={rows}
            columns={columns}
            cells={heat}
          />
          <Table
            caption="Benchmark cells with per-task mean and 95% confidence interval"
            columns={[
              { header: 'Method', cell: (c: MatrixCell) => c.embedding_label },
              { header: 'Stage', cell: (c: MatrixCell) => c.stage_label },
              {
                header: 'Metric',
                cell: (c: MatrixCell) =>
                  (c.excluded_results ?? 0) > 0
                    ? `${c.primary_metric} (${fmtNum(c.excluded_results)} results without it left out)`
                    : c.primary_metric,
              },
              { header: 'Per-task mean', cell: (c: MatrixCell) => fmtNum(c.per_task.mean), numeric: true },
              { header: '95% CI ±', cell: (c: MatrixCell) => fmtNum(c.per_task.ci95), numeric: true },
              { header: 'Tasks', cell: (c: MatrixCell) => fmtNum(c.per_task.n), numeric: true },
              ...tasks.map((t) => ({
                header: t,
                numeric: true,
                cell: (c: MatrixCell) => fmtNum(taskScore(c, t)?.mean),
              })),
              { header: 'Results', cell: (c: MatrixCell) => fmtNum(c.results), numeric: true },
            ]}
            rows={cells}
            rowKey={(c) => `${c.embedding}-${c.stage}`}
          />
        </>
      )}
    </>
  );
}
