import { FormEvent, useState } from 'react';
import {
  AnnotationSet,
  EmbeddingConfig,
  OntologySnapshot,
  ProteinList,
  Protein,
  ProteinAnnotation,
  ProteinDetail,
  qs,
  Subgraph,
} from '../api';
import { GoGraph } from '../charts';
import { navigate, setQuery, useApi, useDocumentTitle, useList, useRoute } from '../hooks';
import {
  ASPECT_NAMES,
  Column,
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
  useQueryOffset,
} from '../ui';

const PAGE = 50;

export function ProteinsPage() {
  useDocumentTitle('Proteins');
  const route = useRoute();
  const search = route.query.get('search') ?? '';
  const offset = useQueryOffset();
  const list = useList<Protein>(`/proteins${qs({ search, limit: PAGE, offset })}`, {
    select: (body) => (body as ProteinList).items,
  });
  const total = (list.body as ProteinList | undefined)?.total ?? 0;
  const columns: Column<Protein>[] = [
    {
      header: 'Accession',
      cell: (p) => <Link to={`/proteins/${encodeURIComponent(p.accession)}`}>{p.accession}</Link>,
    },
    // What a biologist calls it ('Cellular tumor antigen p53'); proteins loaded without one show their
    // entry name ('P53_HUMAN').
    { header: 'Protein', cell: (p) => p.protein_name ?? p.entry_name ?? '—' },
    { header: 'Entry name', cell: (p) => p.entry_name ?? '—' },
    { header: 'Gene', cell: (p) => p.gene_name ?? '—' },
    { header: 'Organism', cell: (p) => p.organism ?? '—' },
    { header: 'Length', cell: (p) => fmtNum(p.length), numeric: true },
    { header: 'Reviewed', cell: (p) => (p.reviewed === null ? '—' : p.reviewed ? 'yes' : 'no') },
  ];
  return (
    <>
      <PageHeader title="Proteins" />
      <QuerySearch label="Search accession, protein or entry name, gene or organism" />
      <ListView list={list} what="proteins" columns={columns} rowKey={(p) => p.accession} />
      <QueryPager limit={PAGE} total={total} />
    </>
  );
}

export function ProteinPage({ accession }: { accession: string }) {
  useDocumentTitle(accession);
  const protein = useApi<ProteinDetail>(`/proteins/${encodeURIComponent(accession)}`);
  const annotations = useList<ProteinAnnotation>(`/proteins/${encodeURIComponent(accession)}/annotations`);
  if (protein.error) return <ErrorNotice error={protein.error} />;
  if (!protein.data) return <Loading what="the protein" />;
  const p = protein.data;
  const metadata = Object.entries(p.metadata ?? {}).filter(
    ([key, value]) => value !== null && !['created_at', 'updated_at', 'canonical_accession'].includes(key),
  );
  const columns: Column<ProteinAnnotation>[] = [
    { header: 'GO term', cell: (a) => <code>{a.go_id}</code> },
    { header: 'Name', cell: (a) => a.go_name ?? '—' },
    { header: 'Aspect', cell: (a) => a.go_aspect ?? '—' },
    { header: 'Evidence', cell: (a) => a.evidence_code ?? '—' },
    { header: 'Qualifier', cell: (a) => (a.is_not ? `NOT ${a.qualifier ?? ''}` : (a.qualifier ?? '—')) },
    { header: 'Source', cell: (a) => `${a.source} ${a.source_version}` },
  ];
  return (
    <>
      <PageHeader title={`Protein ${p.accession}`} />
      <Fields
        entries={[
          ['Protein name', p.protein_name ?? '—'],
          ['Entry name', p.entry_name ?? '—'],
          ['Gene', p.gene_name ?? '—'],
          ['Organism', p.organism ?? '—'],
          ['Taxonomy id', p.taxonomy_id ?? '—'],
          ['Length', fmtNum(p.length)],
          ['Reviewed', p.reviewed === null ? '—' : p.reviewed ? 'yes' : 'no'],
          ['Canonical', p.is_canonical ? 'yes' : `no (of ${p.canonical_accession})`],
          ['Isoforms', p.isoform_accessions.join(', ') || '—'],
          ['Embeddings', fmtNum(p.embedding_count)],
          ['GO annotations', fmtNum(p.go_annotation_count)],
        ]}
      />
      <section aria-labelledby="metadata-heading">
        <h2 id="metadata-heading">UniProt metadata</h2>
        {metadata.length === 0 ? (
          <p className="empty">No UniProt metadata loaded for this protein.</p>
        ) : (
          <Fields entries={metadata.map(([k, v]) => [k.replace(/_/g, ' '), v])} />
        )}
      </section>
      <section aria-labelledby="annotations-heading">
        <h2 id="annotations-heading">GO annotations</h2>
        <ListView list={annotations} what="annotations" columns={columns} rowKey={(a) => a.id} />
      </section>
    </>
  );
}

export function SnapshotsPage() {
  useDocumentTitle('Ontology snapshots');
  const list = useList<OntologySnapshot>('/annotations/snapshots');
  const columns: Column<OntologySnapshot>[] = [
    { header: 'Release', cell: (s) => <OntologyLink id={s.id} version={s.obo_version} /> },
    { header: 'Terms', cell: (s) => fmtNum(s.term_count), numeric: true },
    { header: 'Relationships', cell: (s) => fmtNum(s.relationship_count), numeric: true },
    { header: 'IA file', cell: (s) => s.ia_url ?? '—' },
    { header: 'Loaded', cell: (s) => fmtDate(s.loaded_at) },
  ];
  return (
    <>
      <PageHeader title="Ontology snapshots" />
      <ListView list={list} what="ontology snapshots" columns={columns} rowKey={(s) => s.id} />
    </>
  );
}

const ROOTS = 'GO:0003674,GO:0008150,GO:0005575';

export function SnapshotPage({ id }: { id: string }) {
  const route = useRoute();
  const goIds = route.query.get('go') ?? ROOTS;
  // Deep enough for the whole ancestry of most terms (the API's own default is 3 levels).
  const depth = route.query.get('depth') ?? '20';
  useDocumentTitle(`GO subgraph ${goIds}`);
  const [draft, setDraft] = useState(goIds === ROOTS ? '' : goIds);
  const snapshot = useApi<OntologySnapshot>(`/annotations/snapshots/${id}`);
  const graph = useApi<Subgraph>(`/annotations/snapshots/${id}/subgraph${qs({ go_ids: goIds, depth })}`);
  const select = (goId: string) => {
    setDraft(goId);
    navigate(`/ontology/${id}${qs({ go: goId, depth })}`);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery(route, { go: draft.replace(/\s+/g, '') || undefined });
  };
  return (
    <>
      <PageHeader title={`Ontology ${snapshot.data?.obo_version ?? shortId(id)}`} />
      {snapshot.error && <ErrorNotice error={snapshot.error} />}
      {snapshot.data && (
        <Fields
          entries={[
            ['Terms', fmtNum(snapshot.data.term_count)],
            ['Source', snapshot.data.obo_url],
            ['Loaded', fmtDate(snapshot.data.loaded_at)],
          ]}
        />
      )}
      <form className="filters" onSubmit={submit} aria-label="Choose GO terms">
        <label>
          GO terms (comma-separated)
          <input value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="GO:0005515" />
        </label>
        <label>
          Depth
          <input
            type="number"
            min={1}
            max={50}
            value={depth}
            onChange={(e) => setQuery(route, { depth: e.target.value })}
          />
        </label>
        <button type="submit">Show ancestors</button>
      </form>
      <p className="muted">
        Ancestors of the chosen terms (highlighted); arrows point from a child to its parent: solid for is_a,
        dashed for part_of, dotted for regulation. Select a term to show its own ancestors.
      </p>
      {graph.error && <ErrorNotice error={graph.error} />}
      {graph.loading && <Loading what="the subgraph" />}
      {graph.data && graph.data.nodes.length === 0 && (
        <p className="empty">None of these terms is in this snapshot.</p>
      )}
      {graph.data && graph.data.nodes.length > 0 && (
        <>
          <GoGraph graph={graph.data} onSelect={select} />
          <details>
            <summary>Terms and relations as a list</summary>
            <ul>
              {graph.data.nodes.map((n) => {
                const parents = graph
                  .data!.edges.filter((e) => e.source === n.id)
                  .map(
                    (e) =>
                      `${e.relation_type} ${graph.data!.nodes.find((m) => m.id === e.target)?.go_id ?? e.target}`,
                  );
                const children = graph
                  .data!.edges.filter((e) => e.target === n.id)
                  .map((e) => graph.data!.nodes.find((m) => m.id === e.source)?.go_id ?? String(e.source));
                return (
                  <li key={n.id}>
                    <button type="button" className="linklike" onClick={() => select(n.go_id)}>
                      {n.go_id}
                    </button>{' '}
                    {n.name} ({ASPECT_NAMES[n.aspect ?? ''] ?? 'no aspect'}); parents:{' '}
                    {parents.join(', ') || 'none'}; children shown: {children.join(', ') || 'none'}
                  </li>
                );
              })}
            </ul>
          </details>
        </>
      )}
    </>
  );
}

export function AnnotationSetsPage() {
  useDocumentTitle('Annotation sets');
  const route = useRoute();
  const source = route.query.get('source') ?? '';
  const list = useList<AnnotationSet>(`/annotations/sets${qs({ source })}`);
  const columns: Column<AnnotationSet>[] = [
    { header: 'Set', cell: (s) => <code title={s.id}>{shortId(s.id)}</code> },
    { header: 'Source', cell: (s) => s.source },
    { header: 'Version', cell: (s) => s.source_version },
    {
      header: 'Ontology',
      cell: (s) => <OntologyLink id={s.ontology_snapshot_id} version={s.obo_version} />,
    },
    { header: 'Annotations', cell: (s) => fmtNum(s.annotation_count), numeric: true },
    { header: 'Loaded', cell: (s) => fmtDate(s.created_at) },
  ];
  return (
    <>
      <PageHeader title="Annotation sets" />
      <FilterBar label="Filter annotation sets">
        <QueryFilter label="Source" name="source" options={['goa', 'quickgo']} />
      </FilterBar>
      <ListView list={list} what="annotation sets" columns={columns} rowKey={(s) => s.id} />
    </>
  );
}

export function EmbeddingConfigsPage() {
  useDocumentTitle('Embedding configs');
  const list = useList<EmbeddingConfig>('/embeddings/configs');
  const columns: Column<EmbeddingConfig>[] = [
    { header: 'Config', cell: (c) => <code title={c.id}>{shortId(c.id)}</code> },
    { header: 'Model', cell: (c) => c.model_name },
    { header: 'Backend', cell: (c) => c.model_backend },
    { header: 'Pooling', cell: (c) => c.pooling ?? '—' },
    { header: 'Max length', cell: (c) => fmtNum(c.max_length), numeric: true },
    { header: 'Chunking', cell: (c) => (c.use_chunking ? 'yes' : 'no') },
    { header: 'Embeddings', cell: (c) => fmtNum(c.embedding_count), numeric: true },
    { header: 'Created', cell: (c) => fmtDate(c.created_at) },
  ];
  return (
    <>
      <PageHeader title="Embedding configs" />
      <ListView list={list} what="embedding configs" columns={columns} rowKey={(c) => c.id} />
    </>
  );
}
