import { FormEvent, ReactNode, useState } from 'react';
import {
  AnnotateResponse,
  isActive,
  Job,
  post,
  PredictionSet,
  PredictionSetSummary,
  qs,
  QuerySet,
  QuerySetDetail,
} from '../api';
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
          <label htmlFor="qs-file">
            FASTA file (known terms of a protein may go in its header: GO=GO:…,GO:…)
          </label>
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
  const set = useApi<QuerySetDetail>(`/query-sets/${id}`);
  // The newest prediction sets the visitor may see, those of this query set: its runs, by settings.
  const runs = useList<PredictionSetSummary>('/embeddings/prediction-sets');
  useDocumentTitle(set.data ? `Query set ${set.data.name}` : `Query set ${shortId(id)}`);
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
          { header: 'Gene', cell: (e) => e.gene_name ?? '—' },
          {
            // What the header's GO= says is known: it informs the prediction and comes back as submitted.
            header: 'Known terms (GO=)',
            cell: (e) =>
              e.known_go_ids && e.known_go_ids.length > 0
                ? `${e.known_go_ids.slice(0, 3).join(', ')}${e.known_go_ids.length > 3 ? ` and ${e.known_go_ids.length - 3} more` : ''}`
                : '—',
          },
        ]}
        rowKey={(e) => e.id}
      />
      <section aria-labelledby="runs-heading">
        <h2 id="runs-heading">Prediction sets of this query set</h2>
        <ListView
          list={{ ...runs, items: runs.items.filter((r) => r.query_set_id === id) }}
          what="prediction sets of this query set"
          columns={[
            {
              header: 'Prediction set',
              cell: (r) => <Link to={`/prediction-sets/${r.id}`}>{r.label}</Link>,
            },
            { header: 'Predictions', cell: (r) => fmtNum(r.prediction_count), numeric: true },
          ]}
          rowKey={(r) => r.id}
        />
      </section>
    </>
  );
}

/**
 * FASTA in, the prediction queued at once. A submitted run moves to its permalink,
 * `#/annotate/<prediction job id>`, where the job is followed live until the predictions open. A
 * permalink of an older run names its embedding job, whose result names the prediction it chained.
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
      navigate(`/annotate/${submitted.prediction_job_id}`);
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
        Upload protein sequences in FASTA format. The service picks the reference (annotation set and
        ontology), aligns the sequences to its annotated proteins with DIAMOND and predicts GO terms from
        their homologs and the term prior.
      </p>
      <p className="muted">
        Terms you already know of a protein go in its header, <code>GO=GO:0004672,GO:0005524</code>: they
        inform its prediction and come back as submitted, not predicted.
      </p>
      <form className="stack-form card" onSubmit={(e) => void submit(e)}>
        <label htmlFor="annotate-name">Name</label>
        <input id="annotate-name" name="name" placeholder="my proteins" />
        <label htmlFor="annotate-file">FASTA file</label>
        <input id="annotate-file" name="file" type="file" accept=".fasta,.fa,.faa,.txt,text/plain" required />
        <label htmlFor="annotate-donors">Donor annotations</label>
        <select id="annotate-donors" name="donor_evidence" defaultValue="">
          <option value="">The reference&apos;s default</option>
          <option value="experimental">
            Experimental evidence only (what the scores are calibrated for)
          </option>
          <option value="all">
            Every evidence code, electronic (IEA) included (scored by a blend fitted for it)
          </option>
        </select>
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
      {runId && <AnnotationTracker runJobId={runId} />}
    </>
  );
}

const POLL_MS = 1500;

/**
 * Follows a run from the job its permalink names: the prediction job itself, or (an older run) the
 * embedding job whose result names the prediction it chained.
 */
function AnnotationTracker({ runJobId }: { runJobId: string }) {
  const run = useApi<Job>(`/jobs/${runJobId}`, {
    pollMs: POLL_MS,
    keepPolling: (j) => isActive(j.status),
  });
  const isPrediction = run.data?.operation === 'predict_go_terms';
  const embedding = run.data && !isPrediction ? run.data : undefined;
  const querySetId = run.data?.payload['query_set_id'];
  const querySet = useApi<QuerySet>(typeof querySetId === 'string' ? `/query-sets/${querySetId}` : null);
  const chainedId = embedding?.result?.['prediction_job_id'];
  const predictionJobId = isPrediction ? runJobId : typeof chainedId === 'string' ? chainedId : undefined;
  const chained = useApi<Job>(!isPrediction && predictionJobId ? `/jobs/${predictionJobId}` : null, {
    pollMs: POLL_MS,
    keepPolling: (j) => isActive(j.status),
  });
  const prediction = isPrediction ? run : chained;
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
        Permalink: <Link to={`/annotate/${runJobId}`}>{`#/annotate/${runJobId}`}</Link>
      </p>
      {run.error && <ErrorNotice error={run.error} />}
      {embedding && (
        <>
          <h3>
            Embeddings (<Link to={`/jobs/${runJobId}`}>job {shortId(runJobId)}</Link>)
          </h3>
          <JobProgress job={embedding} label="Embedding progress" waiting={null} />
        </>
      )}
      <h3>
        Prediction
        {predictionJobId && (
          <>
            {' '}
            (<Link to={`/jobs/${predictionJobId}`}>job {shortId(predictionJobId)}</Link>)
          </>
        )}
      </h3>
      <JobProgress
        job={prediction.data}
        label="Prediction progress"
        waiting={
          embedding ? (
            <p className="muted">Starts when the embeddings are done.</p>
          ) : (
            <Loading what="the prediction job" />
          )
        }
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
