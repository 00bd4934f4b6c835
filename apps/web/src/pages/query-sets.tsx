import { FormEvent, ReactNode, useState } from 'react';
import { AnnotateResponse, isActive, Job, post, PredictionSet, qs, QuerySet, QuerySetDetail } from '../api';
import { navigate, useApi, useDocumentTitle, useList } from '../hooks';
import { useSession } from '../session';
import {
  Backing,
  Column,
  ErrorNotice,
  Fields,
  fmtDate,
  fmtNum,
  Link,
  ListView,
  Loading,
  PageHeader,
  ProgressBar,
  shortId,
} from '../ui';

export function QuerySetsPage() {
  useDocumentTitle('Query sets');
  const { user } = useSession();
  const list = useList<QuerySet>('/query-sets');
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<QuerySet | null>(null);
  const upload = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    try {
      const set = await post<QuerySet>('/query-sets', new FormData(event.currentTarget));
      setCreated(set);
      list.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const columns: Column<QuerySet>[] = [
    { header: 'Name', cell: (s) => <Link to={`/query-sets/${s.id}`}>{s.name}</Link> },
    { header: 'Description', cell: (s) => s.description ?? '—' },
    { header: 'Entries', cell: (s) => fmtNum(s.entry_count), numeric: true },
    { header: 'Created', cell: (s) => fmtDate(s.created_at) },
  ];
  return (
    <>
      <PageHeader title="Query sets" />
      {user ? (
        <form className="stack-form card" onSubmit={(e) => void upload(e)}>
          <h2>Upload a FASTA file</h2>
          <label htmlFor="qs-name">Name</label>
          <input id="qs-name" name="name" required />
          <label htmlFor="qs-description">Description</label>
          <input id="qs-description" name="description" />
          <label htmlFor="qs-file">FASTA file</label>
          <input id="qs-file" name="file" type="file" accept=".fasta,.fa,.faa,.txt,text/plain" required />
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          {created && (
            <p role="status">
              Created <Link to={`/query-sets/${created.id}`}>{created.name}</Link>.
            </p>
          )}
          <button type="submit">Upload</button>
        </form>
      ) : (
        <p className="muted">
          <Link to="/login">Sign in</Link> to upload FASTA files; anyone may try{' '}
          <Link to="/annotate">one-click annotation</Link>.
        </p>
      )}
      <ListView list={list} what="query sets" columns={columns} rowKey={(s) => s.id} />
    </>
  );
}

export function QuerySetPage({ id }: { id: string }) {
  useDocumentTitle(`Query set ${shortId(id)}`);
  const set = useApi<QuerySetDetail>(`/query-sets/${id}`);
  if (set.error) return <ErrorNotice error={set.error} />;
  if (!set.data) return <Loading what="the query set" />;
  const entries = set.data.entries ?? [];
  return (
    <>
      <PageHeader title={`Query set ${set.data.name}`} />
      <Fields
        entries={[
          ['Id', <code key="id">{set.data.id}</code>],
          ['Description', set.data.description ?? '—'],
          ['Created', fmtDate(set.data.created_at)],
          ['Entries', fmtNum(entries.length)],
        ]}
      />
      <ListView
        list={{ ...set, data: entries, items: entries, restricted: false, unavailable: false, body: entries }}
        what="entries"
        columns={[
          { header: 'Accession', cell: (e) => e.accession },
          { header: 'Sequence', cell: (e) => e.sequence_id, numeric: true },
          { header: 'Species', cell: (e) => e.species ?? '—' },
        ]}
        rowKey={(e) => e.id}
      />
    </>
  );
}

/**
 * FASTA in, embeddings, then the chained prediction. A submitted run moves to its permalink,
 * `#/annotate/<embedding job id>`, where both jobs are followed live until the predictions open.
 */
export function AnnotatePage({ runId }: { runId?: string }) {
  useDocumentTitle('Annotate');
  const { user } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    const form = new FormData(event.currentTarget);
    const saveHistory = form.get('save_history') === 'on';
    form.delete('save_history');
    try {
      const submitted = await post<AnnotateResponse>(`/annotate${qs({ save_history: saveHistory })}`, form);
      navigate(`/annotate/${submitted.embedding_job_id}`);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <PageHeader title="One-click annotation" />
      <p>
        Upload protein sequences in FASTA format. The service picks the best embedding config, annotation set
        and ontology, embeds the sequences and predicts GO terms by nearest-neighbour transfer.
      </p>
      <form className="stack-form card" onSubmit={(e) => void submit(e)}>
        <label htmlFor="annotate-name">Name</label>
        <input id="annotate-name" name="name" placeholder="my proteins" />
        <label htmlFor="annotate-file">FASTA file</label>
        <input id="annotate-file" name="file" type="file" accept=".fasta,.fa,.faa,.txt,text/plain" required />
        <label className="inline">
          <input type="checkbox" name="save_history" defaultChecked={Boolean(user)} disabled={!user} />
          Keep the query set in my history {user ? '' : '(needs an account)'}
        </label>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Uploading…' : 'Annotate'}
        </button>
      </form>
      {runId && <AnnotationTracker embeddingJobId={runId} />}
    </>
  );
}

const POLL_MS = 1500;

function AnnotationTracker({ embeddingJobId }: { embeddingJobId: string }) {
  const embedding = useApi<Job>(`/jobs/${embeddingJobId}`, {
    pollMs: POLL_MS,
    keepPolling: (j) => isActive(j.status),
  });
  const querySetId = embedding.data?.payload['query_set_id'];
  const querySet = useApi<QuerySet>(typeof querySetId === 'string' ? `/query-sets/${querySetId}` : null);
  const predictionJobId = embedding.data?.result?.['prediction_job_id'];
  const prediction = useApi<Job>(typeof predictionJobId === 'string' ? `/jobs/${predictionJobId}` : null, {
    pollMs: POLL_MS,
    keepPolling: (j) => isActive(j.status),
  });
  const predictionSetId = prediction.data?.result?.['prediction_set_id'];
  const done = prediction.data?.status === 'SUCCEEDED';
  const resolved = useApi<PredictionSet>(
    done && typeof predictionSetId === 'string' ? `/embeddings/prediction-sets/${predictionSetId}` : null,
  );
  return (
    <section className="card" aria-labelledby="tracker-heading" aria-live="polite">
      <h2 id="tracker-heading">
        Progress of{' '}
        {querySet.data && typeof querySetId === 'string' ? (
          <Link to={`/query-sets/${querySetId}`}>{querySet.data.name}</Link>
        ) : (
          'the run'
        )}
      </h2>
      <p className="muted">
        Permalink: <Link to={`/annotate/${embeddingJobId}`}>{`#/annotate/${embeddingJobId}`}</Link>
      </p>
      <h3>
        Embeddings (<Link to={`/jobs/${embeddingJobId}`}>job {shortId(embeddingJobId)}</Link>)
      </h3>
      <JobProgress
        job={embedding.data}
        label="Embedding progress"
        waiting={<Loading what="the embedding job" />}
      />
      <h3>
        Prediction
        {typeof predictionJobId === 'string' && (
          <>
            {' '}
            (<Link to={`/jobs/${predictionJobId}`}>job {shortId(predictionJobId)}</Link>)
          </>
        )}
      </h3>
      <JobProgress
        job={prediction.data}
        label="Prediction progress"
        waiting={<p className="muted">Starts when the embeddings are done.</p>}
      />
      {prediction.data?.result?.['reference'] != null && (
        <Backing
          reference={prediction.data.result['reference'] as Parameters<typeof Backing>[0]['reference']}
          coverage={(prediction.data.result['coverage'] as Parameters<typeof Backing>[0]['coverage']) ?? null}
          warnings={(prediction.data.result['warnings'] as string[] | undefined) ?? []}
        />
      )}
      {resolved.error && <ErrorNotice error={resolved.error} />}
      {resolved.data && (
        <p>
          <Link className="button" to={`/prediction-sets/${resolved.data.id}`}>
            Open the predictions
          </Link>
        </p>
      )}
    </section>
  );
}

/** A job's progress bar and its error, or `waiting` until the job can be read. */
function JobProgress({ job, label, waiting }: { job: Job | undefined; label: string; waiting: ReactNode }) {
  if (!job) return <>{waiting}</>;
  return (
    <>
      <ProgressBar
        current={job.progress_current}
        total={job.progress_total}
        status={job.status}
        label={label}
      />
      {job.error_message && <p className="error">{job.error_message}</p>}
    </>
  );
}
