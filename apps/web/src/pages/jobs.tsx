import { FormEvent, useEffect, useRef, useState } from 'react';
import { isActive, Job, JOB_STATUSES, JobComment, JobEvent, OPERATIONS, post, qs } from '../api';
import { useApi, useDocumentTitle, useList, useRoute } from '../hooks';
import { useSession } from '../session';
import {
  Column,
  EmptyState,
  ErrorNotice,
  Fields,
  FilterBar,
  fmtDate,
  Link,
  ListView,
  Loading,
  PageHeader,
  ProgressBar,
  QueryFilter,
  shortId,
  StatusBadge,
} from '../ui';

const POLL_MS = 1500;

/** An operation in words: `predict_go_terms` → `Predict GO terms`. */
export function operationLabel(operation: string): string {
  const words = operation
    .split('_')
    .map((w) =>
      ['go', 'goa', 'cafa', 'gaf', 'obo', 'ia', 'nk', 'lk', 'pk'].includes(w) ? w.toUpperCase() : w,
    )
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A job by name: what it does, what it was given a name for (if anything), and when it was queued. */
function jobName(j: Job): string {
  return [operationLabel(j.operation), j.description, fmtDate(j.created_at).slice(0, 16)]
    .filter((part) => part)
    .join(' · ');
}

export function JobsPage() {
  useDocumentTitle('Jobs');
  const route = useRoute();
  const status = route.query.get('status') ?? '';
  const operation = route.query.get('operation') ?? '';
  const { user } = useSession();
  // Chained jobs (the prediction a one-click annotation queues) are children: show them too.
  const list = useList<Job>(`/jobs${qs({ status, operation, limit: 100, include_children: true })}`, {
    pollMs: POLL_MS,
    keepPolling: (jobs) => jobs.some((j) => isActive(j.status)),
  });
  const columns: Column<Job>[] = [
    {
      header: 'Job',
      cell: (j) => (
        <>
          <Link to={`/jobs/${j.id}`}>{operationLabel(j.operation)}</Link>{' '}
          <span className="muted small">{shortId(j.id)}</span>
          {j.description && <div className="small">{j.description}</div>}
        </>
      ),
    },
    { header: 'Operation', cell: (j) => <code>{j.operation}</code> },
    {
      header: 'Queued by',
      cell: (j) =>
        j.parent_job_id ? <Link to={`/jobs/${j.parent_job_id}`}>job {shortId(j.parent_job_id)}</Link> : '—',
    },
    {
      header: 'Progress',
      cell: (j) => (
        <ProgressBar
          current={j.progress_current}
          total={j.progress_total}
          status={j.status}
          label={`Progress of job ${shortId(j.id)}`}
        />
      ),
    },
    { header: 'Created', cell: (j) => fmtDate(j.created_at) },
    { header: 'Finished', cell: (j) => fmtDate(j.finished_at) },
    { header: 'Error', cell: (j) => j.error_code ?? '' },
  ];
  return (
    <>
      <PageHeader title="Jobs" />
      <FilterBar label="Filter jobs">
        <QueryFilter label="Status" name="status" options={JOB_STATUSES} />
        <QueryFilter label="Operation" name="operation" options={OPERATIONS} />
      </FilterBar>
      <ListView list={list} what="jobs" columns={columns} rowKey={(j) => j.id} signInHint={user === null} />
    </>
  );
}

/** Ids in a job's result that have a page of their own. */
const RESULT_LINKS: Record<string, [string, string]> = {
  prediction_job_id: ['Chained prediction job', '/jobs'],
  prediction_set_id: ['Prediction set', '/prediction-sets'],
  evaluation_set_id: ['Evaluation set', '/evaluation-sets'],
  ontology_snapshot_id: ['Ontology snapshot', '/ontology'],
  query_set_id: ['Query set', '/query-sets'],
};

export function JobPage({ id }: { id: string }) {
  const job = useApi<Job>(`/jobs/${id}`, { pollMs: POLL_MS, keepPolling: (j) => isActive(j.status) });
  useDocumentTitle(job.data ? jobName(job.data) : `Job ${shortId(id)}`);
  const running = job.data === undefined || isActive(job.data.status);
  // Events poll with the job and stop with it, after one last read that sees the final events.
  const runningRef = useRef(running);
  runningRef.current = running;
  const events = useList<JobEvent>(`/jobs/${id}/events?limit=500`, {
    pollMs: POLL_MS,
    keepPolling: () => runningRef.current,
  });
  const reloadEvents = events.reload;
  useEffect(() => {
    if (!running) reloadEvents();
  }, [running, reloadEvents]);
  if (job.error) return <ErrorNotice error={job.error} />;
  if (!job.data) return <Loading what="the job" />;
  const j = job.data;
  const produced = Object.entries(RESULT_LINKS).flatMap(([key, [label, route]]) => {
    const value = j.result?.[key];
    return typeof value === 'string' ? [{ key, label, to: `${route}/${value}`, value }] : [];
  });
  return (
    <>
      <PageHeader title={jobName(j)} />
      <section aria-labelledby="progress-heading">
        <h2 id="progress-heading">Progress</h2>
        <ProgressBar
          current={j.progress_current}
          total={j.progress_total}
          status={j.status}
          label={`Progress of job ${shortId(j.id)}`}
        />
        {j.error_code && (
          <p className="error" role="alert">
            {j.error_code}: {j.error_message}
          </p>
        )}
        {produced.length > 0 && (
          <ul className="produced">
            {produced.map((p) => (
              <li key={p.key}>
                {p.label}: <Link to={p.to}>{shortId(p.value)}</Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Fields
        entries={[
          ['Id', <code key="id">{j.id}</code>],
          ['Queue', j.queue_name],
          ['Status', <StatusBadge key="s" status={j.status} />],
          ['Created', fmtDate(j.created_at)],
          ['Started', fmtDate(j.started_at)],
          ['Finished', fmtDate(j.finished_at)],
          [
            'Parent',
            j.parent_job_id ? <Link to={`/jobs/${j.parent_job_id}`}>{shortId(j.parent_job_id)}</Link> : '—',
          ],
          ['Tags', j.tags.join(', ') || '—'],
          ['Description', j.description ?? '—'],
          ['Findings', j.findings ?? '—'],
        ]}
      />
      <details>
        <summary>Payload and result</summary>
        <pre>{JSON.stringify({ payload: j.payload, meta: j.meta, result: j.result }, null, 2)}</pre>
      </details>
      <section aria-labelledby="events-heading">
        <h2 id="events-heading">Events</h2>
        {events.items.length === 0 ? (
          <EmptyState list={events} what="events" />
        ) : (
          <ol className="timeline" aria-live="polite">
            {events.items.map((e) => (
              <li key={e.id} className={`level-${e.level}`}>
                <time dateTime={e.ts}>{fmtDate(e.ts)}</time> <strong>{e.event}</strong>
                {e.message && <span> {e.message}</span>}
                {Object.keys(e.fields).length > 0 && (
                  <code className="event-fields">{JSON.stringify(e.fields)}</code>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>
      <Comments jobId={j.id} />
    </>
  );
}

function Comments({ jobId }: { jobId: string }) {
  const { user } = useSession();
  const comments = useList<JobComment>(`/jobs/${jobId}/comments`);
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      // The server records the signed-in account as the author.
      await post(`/jobs/${jobId}/comments`, { body });
      setBody('');
      comments.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments</h2>
      {comments.items.length === 0 ? (
        <EmptyState list={comments} what="comments" />
      ) : (
        <ul className="comments">
          {comments.items.map((c) => (
            <li key={c.id}>
              <p className="muted">
                {c.author ?? 'anonymous'} · {fmtDate(c.created_at)}
              </p>
              <p className="comment-body">{c.body}</p>
            </li>
          ))}
        </ul>
      )}
      {user ? (
        <form onSubmit={(e) => void submit(e)} className="stack-form">
          <label htmlFor="comment-body">Add a comment</label>
          <textarea
            id="comment-body"
            value={body}
            onChange={(e) => setBody(e.target.value)}
            required
            rows={3}
          />
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" disabled={body.trim().length === 0}>
            Post comment
          </button>
        </form>
      ) : (
        <p className="muted">
          <Link to="/login">Sign in</Link> to comment.
        </p>
      )}
    </section>
  );
}
