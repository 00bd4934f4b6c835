import { FormEvent, useState } from 'react';
import { Dataset, ExperimentRun, post, qs, Reranker, StackRepo } from '../api';
import { useApi, useDocumentTitle, useList, useRoute } from '../hooks';
import { useSession } from '../session';
import {
  Column,
  ErrorNotice,
  Fields,
  FilterBar,
  fmtDate,
  fmtNum,
  Link,
  ListView,
  Loading,
  PageHeader,
  QueryFilter,
  shortId,
  Table,
} from '../ui';

export function RerankersPage() {
  useDocumentTitle('Re-rankers');
  const list = useList<Reranker>('/reranker-models');
  const columns: Column<Reranker>[] = [
    { header: 'Name', cell: (r) => r.name },
    { header: 'Model', cell: (r) => <code title={r.id}>{shortId(r.id)}</code> },
    { header: 'Feature schema', cell: (r) => <code>{r.feature_schema_sha?.slice(0, 12) ?? '—'}</code> },
    { header: 'Artifact', cell: (r) => r.artifact_uri ?? '—' },
    { header: 'Source', cell: (r) => r.external_source ?? '—' },
    { header: 'Created', cell: (r) => fmtDate(r.created_at) },
  ];
  return (
    <>
      <PageHeader title="Re-rankers" />
      <ListView list={list} what="re-rankers" columns={columns} rowKey={(r) => r.id} />
    </>
  );
}

export function DatasetsPage() {
  useDocumentTitle('Datasets');
  const list = useList<Dataset>('/datasets', {
    select: (body) =>
      Array.isArray(body) ? (body as Dataset[]) : ((body as { items?: Dataset[] }).items ?? []),
  });
  const columns: Column<Dataset>[] = [
    { header: 'Name', cell: (d) => d.name },
    { header: 'Annotation source', cell: (d) => d.annotation_source ?? '—' },
    { header: 'k', cell: (d) => fmtNum(d.k), numeric: true },
    { header: 'Train rows', cell: (d) => fmtNum(d.n_train_rows), numeric: true },
    { header: 'Eval rows', cell: (d) => fmtNum(d.n_eval_rows), numeric: true },
    { header: 'Manifest', cell: (d) => d.manifest_uri ?? '—' },
    { header: 'Created', cell: (d) => fmtDate(d.created_at) },
  ];
  return (
    <>
      <PageHeader title="Datasets" />
      <p className="muted">Frozen re-ranker training datasets exported by the service.</p>
      <ListView list={list} what="datasets" columns={columns} rowKey={(d) => d.id} />
    </>
  );
}

export function ExperimentRunsPage() {
  useDocumentTitle('Experiment runs');
  const route = useRoute();
  const status = route.query.get('status') ?? '';
  const list = useList<ExperimentRun>(`/experiment-runs${qs({ status, limit: 100 })}`);
  const columns: Column<ExperimentRun>[] = [
    { header: 'Name', cell: (r) => <Link to={`/experiment-runs/${r.id}`}>{r.name}</Link> },
    { header: 'Status', cell: (r) => r.status },
    { header: 'Hypothesis', cell: (r) => r.hypothesis ?? '—' },
    { header: 'Tags', cell: (r) => r.tags.join(', ') || '—' },
    { header: 'Created', cell: (r) => fmtDate(r.created_at) },
  ];
  return (
    <>
      <PageHeader title="Experiment runs" />
      <FilterBar label="Filter experiment runs">
        <QueryFilter label="Status" name="status" options={['planned', 'running', 'done', 'abandoned']} />
      </FilterBar>
      <ListView list={list} what="experiment runs" columns={columns} rowKey={(r) => r.id} />
    </>
  );
}

export function ExperimentRunPage({ id }: { id: string }) {
  useDocumentTitle(`Experiment run ${shortId(id)}`);
  const run = useApi<ExperimentRun & Record<string, unknown>>(`/experiment-runs/${id}`);
  if (run.error) return <ErrorNotice error={run.error} />;
  if (!run.data) return <Loading what="the experiment run" />;
  const r = run.data;
  return (
    <>
      <PageHeader title={`Experiment run ${r.name}`} />
      <Fields
        entries={[
          ['Status', r.status],
          ['Description', r.description ?? '—'],
          ['Hypothesis', r.hypothesis ?? '—'],
          ['Findings', r.findings ?? '—'],
          ['Tags', r.tags.join(', ') || '—'],
          ['Started', fmtDate(r.started_at)],
          ['Finished', fmtDate(r.finished_at)],
          ['Created', fmtDate(r.created_at)],
        ]}
      />
      <details>
        <summary>Config and provenance</summary>
        <pre>{JSON.stringify({ config: r['config'], provenance: r['provenance'] }, null, 2)}</pre>
      </details>
    </>
  );
}

export function StackPage() {
  useDocumentTitle('Stack');
  const stack = useApi<{ repos: StackRepo[]; thesis_pdf_url: string | null }>('/stack');
  const list = {
    ...stack,
    data: stack.data?.repos,
    items: stack.data?.repos ?? [],
    restricted: false,
    unavailable: false,
    body: stack.data,
  };
  const columns: Column<StackRepo>[] = [
    { header: 'Repository', cell: (r) => <a href={r.github_url}>{r.name}</a> },
    { header: 'Role', cell: (r) => r.role_label },
    { header: 'Status', cell: (r) => r.status },
    { header: 'Summary', cell: (r) => r.summary },
    { header: 'Docs', cell: (r) => (r.docs_url ? <a href={r.docs_url}>docs</a> : '—') },
  ];
  return (
    <>
      <PageHeader title="Stack" />
      <p>The repositories that make up the platform.</p>
      {stack.data?.thesis_pdf_url && (
        <p>
          <a href={stack.data.thesis_pdf_url}>Thesis (PDF)</a>
        </p>
      )}
      <ListView list={list} what="repositories" columns={columns} rowKey={(r) => r.slug} />
    </>
  );
}

interface Showcase {
  counts: Record<string, number>;
  best_results: {
    category: string;
    aspect: string;
    result_id: string;
    evaluation_set_id: string;
    stage: string | null;
    metric: string;
    value: number;
  }[];
}

export function ShowcasePage() {
  useDocumentTitle('Showcase');
  const showcase = useApi<Showcase>('/showcase');
  return (
    <>
      <PageHeader title="Protein function annotation" />
      <p className="lead">
        GO term prediction by homology transfer (DIAMOND) blended with a calibrated prior, or by nearest
        neighbours over protein embeddings; every answer names its reference and evidence. Evaluated on
        temporal holdouts (NK, LK, PK) as CAFA scores them, and benchmarked across methods and scoring stages.
      </p>
      <p>
        <Link className="button" to="/annotate">
          Annotate your sequences
        </Link>{' '}
        <Link className="button secondary" to="/benchmark">
          See the benchmark
        </Link>
      </p>
      {showcase.error && <ErrorNotice error={showcase.error} />}
      {showcase.loading && <Loading what="platform statistics" />}
      {showcase.data && (
        <>
          <h2>Platform statistics</h2>
          <ul className="stat-grid">
            {Object.entries(showcase.data.counts).map(([key, value]) => (
              <li key={key}>
                <span className="stat-value">{fmtNum(value)}</span>
                <span className="stat-label">{key.replace(/_/g, ' ')}</span>
              </li>
            ))}
          </ul>
          <h2>Best results</h2>
          {showcase.data.best_results.length === 0 ? (
            <p className="empty">No evaluation results yet.</p>
          ) : (
            <Table
              caption="Best evaluation result per category and aspect"
              columns={[
                { header: 'Category', cell: (r) => r.category },
                { header: 'Aspect', cell: (r) => r.aspect },
                { header: 'Stage', cell: (r) => r.stage ?? '—' },
                { header: 'Metric', cell: (r) => r.metric },
                { header: 'Score', cell: (r) => fmtNum(r.value), numeric: true },
                {
                  header: 'Evaluation',
                  cell: (r) => (
                    <Link to={`/evaluation-sets/${r.evaluation_set_id}`}>{shortId(r.evaluation_set_id)}</Link>
                  ),
                },
              ]}
              rows={showcase.data.best_results}
              rowKey={(r) => `${r.category}-${r.aspect}`}
            />
          )}
        </>
      )}
    </>
  );
}

export function SupportPage() {
  useDocumentTitle('Support');
  const { user } = useSession();
  const support = useApi<{
    total: number;
    recent_comments: { comment: string | null; created_at: string }[];
  }>('/support');
  const [comment, setComment] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await post('/support', comment.trim() ? { comment: comment.trim() } : {});
      setComment('');
      setMessage('Thank you!');
      support.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <>
      <PageHeader title="Support" />
      <p>
        {support.data ? (
          <>
            <strong>{fmtNum(support.data.total)}</strong> thumbs-up so far.
          </>
        ) : (
          'Counting thumbs-up…'
        )}
      </p>
      {!user && (
        <p className="muted">
          <Link to="/login">Sign in</Link> to send a thumbs-up.
        </p>
      )}
      <form className="stack-form card" onSubmit={(e) => void submit(e)} hidden={!user}>
        <label htmlFor="support-comment">Comment (optional)</label>
        <textarea
          id="support-comment"
          value={comment}
          maxLength={2000}
          rows={3}
          onChange={(e) => setComment(e.target.value)}
        />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {message && <p role="status">{message}</p>}
        <button type="submit">👍 Send a thumbs-up</button>
      </form>
      <h2>Recent comments</h2>
      {(support.data?.recent_comments ?? []).length === 0 ? (
        <p className="empty">No comments yet.</p>
      ) : (
        <ul className="comments">
          {support.data?.recent_comments.map((c, i) => (
            <li key={`${c.created_at}-${i}`}>
              <p className="muted">{fmtDate(c.created_at)}</p>
              <p className="comment-body">{c.comment}</p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
