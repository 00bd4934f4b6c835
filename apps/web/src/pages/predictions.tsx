import {
  PredictionProteinsPage,
  PredictedTerm,
  PredictionProtein,
  PredictionSetDetail,
  PredictionSetSummary,
  qs,
  TermDistribution,
} from '../api';
import { TermBars } from '../charts';
import { useApi, useDocumentTitle, useList, useRoute } from '../hooks';
import {
  ASPECT_NAMES,
  Backing,
  Column,
  Download,
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
  QueryPager,
  QuerySearch,
  shortId,
  StatusBadge,
  Table,
  useQueryOffset,
} from '../ui';

export function PredictionSetsPage() {
  useDocumentTitle('Prediction sets');
  const list = useList<PredictionSetSummary>('/embeddings/prediction-sets');
  const columns: Column<PredictionSetSummary>[] = [
    {
      header: 'Prediction set',
      cell: (s) => (
        <>
          <Link to={`/prediction-sets/${s.id}`}>{s.query_set_name ?? 'all proteins'}</Link>{' '}
          <span className="muted small">{shortId(s.id)}</span>
        </>
      ),
    },
    { header: 'Method', cell: (s) => methodLabel(s) },
    { header: 'Reference', cell: (s) => referenceLabel(s) },
    { header: 'Self-hits', cell: (s) => (s.exclude_self ? 'excluded' : 'kept') },
    { header: 'Predictions', cell: (s) => fmtNum(s.prediction_count), numeric: true },
    { header: 'Job', cell: (s) => (s.job_status ? <StatusBadge status={s.job_status} /> : '—') },
    { header: 'Created', cell: (s) => fmtDate(s.created_at) },
  ];
  return (
    <>
      <PageHeader title="Prediction sets" />
      <ListView list={list} what="prediction sets" columns={columns} rowKey={(s) => s.id} />
    </>
  );
}

/** The search method in words: DIAMOND with its blend version, or the embedding a kNN backend searched. */
function methodLabel(s: PredictionSetSummary | PredictionSetDetail): string {
  if (s.search_backend === 'diamond')
    return s.reference?.blend_version ? `DIAMOND, ${s.reference.blend_version}` : 'DIAMOND';
  const backend = s.search_backend === 'hnsw' ? 'embedding kNN (HNSW)' : 'embedding kNN (exact)';
  return `${backend} over ${s.embedding_config_name ?? shortId(s.embedding_config_id)}`;
}

/** The installed reference by name, else the annotation set's label, with its GO release. */
function referenceLabel(s: PredictionSetSummary | PredictionSetDetail): string {
  const annotations = s.reference?.reference_name ?? s.annotation_set_label ?? shortId(s.annotation_set_id);
  return `${annotations} (GO ${s.ontology_version ?? shortId(s.ontology_snapshot_id)})`;
}

/** The score a person starts from: terms below it are hidden from the chart and the files. */
const DEFAULT_MIN_SCORE = '0.3';
const MIN_SCORES = ['0', '0.1', '0.2', '0.3', '0.5', '0.7', '0.9'];

const PAGE = 50;

export function PredictionSetPage({ id }: { id: string }) {
  const route = useRoute();
  const search = route.query.get('search') ?? '';
  const minScore = route.query.get('min_score') ?? DEFAULT_MIN_SCORE;
  const offset = useQueryOffset();
  const set = useApi<PredictionSetDetail>(`/embeddings/prediction-sets/${id}`);
  const proteins = useList<PredictionProtein>(
    `/embeddings/prediction-sets/${id}/proteins${qs({ search, limit: PAGE, offset })}`,
    {
      select: (body) => (body as PredictionProteinsPage).items,
    },
  );
  const total = (proteins.body as PredictionProteinsPage | undefined)?.total ?? 0;
  const distribution = useApi<TermDistribution>(
    `/embeddings/prediction-sets/${id}/go-terms${qs({ limit: 15, basis: 'homology', min_score: minScore })}`,
  );
  useDocumentTitle(set.data ? set.data.label : `Prediction set ${shortId(id)}`);
  if (set.error) return <ErrorNotice error={set.error} />;
  if (!set.data) return <Loading what="the prediction set" />;
  const s = set.data;
  const cut = Number(minScore) > 0 ? `score ≥ ${minScore}` : 'every row';
  const files = `/embeddings/prediction-sets/${id}`;
  const scored = qs({ min_score: minScore });
  const columns: Column<PredictionProtein>[] = [
    {
      header: 'Protein',
      cell: (p) => (
        <Link to={`/prediction-sets/${id}/proteins/${encodeURIComponent(p.protein_accession)}`}>
          {p.protein_accession}
        </Link>
      ),
    },
    {
      header: 'Basis',
      cell: (p) =>
        p.basis === 'known'
          ? 'known (a reference protein)'
          : p.basis === 'homology'
            ? 'homology'
            : p.basis === 'prior'
              ? 'prior only (no homolog)'
              : '—',
    },
    { header: 'Homologs', cell: (p) => fmtNum(p.homologs), numeric: true },
    {
      header: 'Best identity',
      cell: (p) => (p.best_identity == null ? '—' : `${fmtNum(100 * p.best_identity, 1)} %`),
      numeric: true,
    },
    { header: 'GO terms', cell: (p) => fmtNum(p.go_count), numeric: true },
    { header: 'Best score', cell: (p) => fmtNum(p.best_score), numeric: true },
    { header: 'Nearest distance', cell: (p) => fmtNum(p.min_distance), numeric: true },
    { header: 'Known annotations', cell: (p) => fmtNum(p.annotation_count), numeric: true },
    { header: 'Matching known', cell: (p) => fmtNum(p.match_count), numeric: true },
  ];
  return (
    <>
      <PageHeader title={s.label} />
      <Fields
        entries={[
          [
            'Query set',
            s.query_set_id ? (
              <Link key="q" to={`/query-sets/${s.query_set_id}`}>
                {s.query_set_name ?? shortId(s.query_set_id)}
              </Link>
            ) : (
              'all proteins'
            ),
          ],
          ['Method', methodLabel(s)],
          ['Reference', referenceLabel(s)],
          ['Annotation set', s.annotation_set_label ?? s.annotation_set_id],
          ['Ontology', <OntologyLink key="o" id={s.ontology_snapshot_id} version={s.ontology_version} />],
          ['Neighbours per entry', fmtNum(s.limit_per_entry)],
          [
            'Own accession as donor',
            s.exclude_self === false ? 'kept (annotation mode)' : 'excluded (evaluation mode)',
          ],
          ['Proteins', fmtNum(s.protein_count)],
          ['Predictions', fmtNum(s.prediction_count)],
          [
            'Job',
            s.job_id ? (
              <Link key="j" to={`/jobs/${s.job_id}`}>
                {shortId(s.job_id)}
              </Link>
            ) : (
              '—'
            ),
          ],
          ['Created', fmtDate(s.created_at)],
          ['Prediction set id', <code key="id">{s.id}</code>],
        ]}
      />
      <Backing reference={s.reference} coverage={s.coverage} warnings={s.warnings} />
      <FilterBar label="Score threshold">
        <QueryFilter
          label="Show terms scoring at least"
          name="min_score"
          anyValue={DEFAULT_MIN_SCORE}
          anyLabel={`${DEFAULT_MIN_SCORE} (default)`}
          options={MIN_SCORES.filter((m) => m !== DEFAULT_MIN_SCORE).map(
            (m) => [m, m === '0' ? '0 (every row)' : m] as const,
          )}
        />
      </FilterBar>
      <p className="downloads" data-testid="downloads">
        <Download path={`${files}/predictions.tsv${scored}`}>Predictions (TSV, 32 columns; {cut})</Download>
        <Download path={`${files}/predictions-cafa.tsv${scored}`}>CAFA format (TSV; {cut})</Download>
        <Download path={`${files}/predictions.gaf${scored}`}>GAF 2.2 ({cut})</Download>
        <Download path={`${files}/predictions.json${scored}`}>JSON ({cut})</Download>
        <Download path={`${files}/predictions.zip${scored}`}>All formats (ZIP; {cut})</Download>
        {Number(minScore) > 0 && (
          <Download path={`${files}/predictions.zip`}>Every row, all formats (ZIP; for evaluation)</Download>
        )}
      </p>
      <section aria-labelledby="distribution-heading" aria-busy={distribution.loading}>
        <h2 id="distribution-heading">Term distribution</h2>
        <p className="muted small">
          Terms a homolog (or the protein&apos;s own annotation) backs, {cut}; terms resting on the prior
          alone are left out, as they are predicted for every protein.
        </p>
        {distribution.error && <ErrorNotice error={distribution.error} />}
        {distribution.loading && <Loading what="the term distribution" />}
        {distribution.data && (
          <Distribution data={distribution.data} rows={`homology-backed term (${cut})`} />
        )}
      </section>
      <section aria-labelledby="proteins-heading">
        <h2 id="proteins-heading">Proteins</h2>
        <QuerySearch label="Search accession" />
        <ListView list={proteins} what="proteins" columns={columns} rowKey={(p) => p.protein_accession} />
        <QueryPager limit={PAGE} total={total} />
      </section>
    </>
  );
}

type AspectKey = 'F' | 'P' | 'C';

function Distribution({ data, rows }: { data: TermDistribution; rows: string }) {
  const aspects = (['F', 'P', 'C'] as const).filter((a) => data.terms[a].length > 0);
  if (aspects.length === 0)
    return <p className="empty">No homology-backed term at this threshold: lower it to see more.</p>;
  return (
    <>
      <Table
        caption="Predictions per aspect"
        columns={[
          { header: 'Aspect', cell: (a: AspectKey) => ASPECT_NAMES[a] ?? a },
          {
            header: 'Predictions',
            cell: (a: AspectKey) => fmtNum(data.totals[a]?.predictions),
            numeric: true,
          },
          { header: 'Distinct terms', cell: (a: AspectKey) => fmtNum(data.totals[a]?.terms), numeric: true },
          { header: 'Proteins', cell: (a: AspectKey) => fmtNum(data.totals[a]?.proteins), numeric: true },
        ]}
        rows={aspects}
        rowKey={(a) => a}
      />
      <div className="chart-grid">
        {aspects.map((a) => (
          <div key={a}>
            <TermBars title={ASPECT_NAMES[a] ?? a} terms={data.terms[a]} rows={rows} />
            <details>
              <summary>Table of {ASPECT_NAMES[a] ?? a} terms</summary>
              <Table
                caption={`Most predicted ${ASPECT_NAMES[a] ?? a} terms`}
                columns={[
                  { header: 'GO term', cell: (t) => <code>{t.go_id}</code> },
                  { header: 'Name', cell: (t) => t.go_name ?? '—' },
                  { header: 'Proteins', cell: (t) => fmtNum(t.protein_count), numeric: true },
                  { header: 'Predictions', cell: (t) => fmtNum(t.prediction_count), numeric: true },
                ]}
                rows={data.terms[a]}
                rowKey={(t) => t.go_id}
              />
            </details>
          </div>
        ))}
      </div>
    </>
  );
}

export function PredictedProteinPage({ id, accession }: { id: string; accession: string }) {
  useDocumentTitle(`${accession} predictions`);
  const route = useRoute();
  const aspect = route.query.get('aspect') ?? '';
  const set = useApi<PredictionSetDetail>(`/embeddings/prediction-sets/${id}`);
  const terms = useList<PredictedTerm>(
    `/embeddings/prediction-sets/${id}/proteins/${encodeURIComponent(accession)}`,
  );
  const rows = terms.items
    .filter((t) => aspect === '' || t.go_aspect === aspect)
    .sort((a, b) => b.score - a.score || a.distance - b.distance);
  const snapshot = set.data?.ontology_snapshot_id;
  const columns: Column<PredictedTerm>[] = [
    {
      header: 'GO term',
      cell: (t) => (snapshot ? <Link to={`/ontology/${snapshot}?go=${t.go_id}`}>{t.go_id}</Link> : t.go_id),
    },
    { header: 'Name', cell: (t) => t.go_name ?? '—' },
    { header: 'Aspect', cell: (t) => t.go_aspect ?? '—' },
    { header: 'Score', cell: (t) => fmtNum(t.score, 3), numeric: true },
    { header: 'Distance', cell: (t) => fmtNum(t.distance, 4), numeric: true },
    {
      header: 'Reference',
      cell: (t) =>
        t.known ? (
          'known: its own annotation in the reference'
        ) : t.submitted ? (
          'known: listed with the upload (GO=)'
        ) : !t.ref_protein_accession ? (
          'prior (no homolog carries it)'
        ) : (
          <>
            <Link to={`/proteins/${encodeURIComponent(t.ref_protein_accession)}`}>
              {t.ref_protein_accession}
            </Link>
            {t.self_hit === true && ' (itself)'}
          </>
        ),
    },
    { header: 'Evidence', cell: (t) => t.evidence_code ?? '—' },
    { header: 'Votes', cell: (t) => fmtNum(t.vote_count), numeric: true },
    { header: 'Identity (NW)', cell: (t) => fmtNum(t.identity_nw), numeric: true },
  ];
  return (
    <>
      <PageHeader title={`Predicted terms of ${accession}`} />
      <p>
        In <Link to={`/prediction-sets/${id}`}>{set.data?.label ?? `prediction set ${shortId(id)}`}</Link>,
        best score first.{' '}
        <Download path={`/embeddings/prediction-sets/${id}/predictions.tsv${qs({ accession })}`}>
          TSV of this protein
        </Download>
      </p>
      <FilterBar label="Filter predicted terms">
        <QueryFilter
          label="Aspect"
          name="aspect"
          anyLabel="all"
          options={(['F', 'P', 'C'] as const).map((a) => [a, ASPECT_NAMES[a]] as const)}
        />
      </FilterBar>
      <ListView
        list={{ ...terms, items: rows }}
        what="predicted terms"
        columns={columns}
        rowKey={(t) => `${t.go_id}-${t.ref_protein_accession}`}
      />
    </>
  );
}
