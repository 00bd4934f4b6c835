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
    { header: 'Set', cell: (s) => <Link to={`/prediction-sets/${s.id}`}>{shortId(s.id)}</Link> },
    { header: 'Embedding', cell: (s) => s.embedding_config_name ?? shortId(s.embedding_config_id) },
    { header: 'Annotations', cell: (s) => s.annotation_set_label ?? shortId(s.annotation_set_id) },
    { header: 'Ontology', cell: (s) => s.ontology_version ?? shortId(s.ontology_snapshot_id) },
    {
      header: 'Query set',
      cell: (s) =>
        s.query_set_id ? (
          <Link to={`/query-sets/${s.query_set_id}`}>{shortId(s.query_set_id)}</Link>
        ) : (
          'all proteins'
        ),
    },
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

const PAGE = 50;

export function PredictionSetPage({ id }: { id: string }) {
  useDocumentTitle(`Prediction set ${shortId(id)}`);
  const route = useRoute();
  const search = route.query.get('search') ?? '';
  const offset = useQueryOffset();
  const set = useApi<PredictionSetDetail>(`/embeddings/prediction-sets/${id}`);
  const proteins = useList<PredictionProtein>(
    `/embeddings/prediction-sets/${id}/proteins${qs({ search, limit: PAGE, offset })}`,
    {
      select: (body) => (body as PredictionProteinsPage).items,
    },
  );
  const total = (proteins.body as PredictionProteinsPage | undefined)?.total ?? 0;
  const distribution = useApi<TermDistribution>(`/embeddings/prediction-sets/${id}/go-terms?limit=15`);
  if (set.error) return <ErrorNotice error={set.error} />;
  if (!set.data) return <Loading what="the prediction set" />;
  const s = set.data;
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
      <PageHeader title={`Prediction set ${shortId(s.id)}`} />
      <Fields
        entries={[
          ['Embedding config', s.embedding_config_name ?? s.embedding_config_id],
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
        ]}
      />
      <Backing reference={s.reference} coverage={s.coverage} warnings={s.warnings} />
      <p className="downloads">
        <Download path={`/embeddings/prediction-sets/${id}/predictions.tsv`}>
          Predictions (TSV, 32 columns and the score)
        </Download>
        <Download path={`/embeddings/prediction-sets/${id}/predictions-cafa.tsv`}>CAFA format (TSV)</Download>
        <Download path={`/embeddings/prediction-sets/${id}/predictions.gaf?min_score=0.3`}>
          GAF 2.2 (score ≥ 0.3)
        </Download>
        <Download path={`/embeddings/prediction-sets/${id}/predictions.json?min_score=0.3`}>
          JSON (score ≥ 0.3)
        </Download>
        <Download path={`/embeddings/prediction-sets/${id}/predictions.zip?min_score=0.3`}>
          All formats (ZIP)
        </Download>
      </p>
      <section aria-labelledby="distribution-heading">
        <h2 id="distribution-heading">Term distribution</h2>
        {distribution.error && <ErrorNotice error={distribution.error} />}
        {distribution.data && <Distribution data={distribution.data} />}
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

function Distribution({ data }: { data: TermDistribution }) {
  const aspects = (['F', 'P', 'C'] as const).filter((a) => data.terms[a].length > 0);
  if (aspects.length === 0) return <p className="empty">No predicted terms.</p>;
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
            <TermBars title={ASPECT_NAMES[a] ?? a} terms={data.terms[a]} />
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
        In <Link to={`/prediction-sets/${id}`}>prediction set {shortId(id)}</Link>, best score first.{' '}
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
