import { ReactNode, useState } from 'react';
import type { components } from '@svc/client/contract';
import { API } from './api';
import { LoadedList, setQuery, useRoute } from './hooks';

export function fmtDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString().replace('T', ' ').slice(0, 19);
}

export function fmtNum(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return Number.isInteger(value) ? value.toLocaleString('en') : value.toFixed(digits);
}

export const shortId = (id: string | null | undefined): string => (id ? id.slice(0, 8) : '—');

export function Link({ to, children, className }: { to: string; children: ReactNode; className?: string }) {
  return (
    <a href={`#${to}`} className={className}>
      {children}
    </a>
  );
}

/** A plain link to a file the API streams (TSV, FASTA, ZIP). */
export function Download({ path, children }: { path: string; children: ReactNode }) {
  return (
    <a className="download" href={`${API}${path}`} download>
      {children}
    </a>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1 id="page-title" tabIndex={-1}>
        {title}
      </h1>
      {children}
    </header>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorNotice({ error }: { error: Error }) {
  return (
    <p className="error" role="alert">
      {error.message}
    </p>
  );
}

/** The empty state of a list, saying why when the API refused or lacks the list. */
export function EmptyState({
  list,
  what,
  signInHint = false,
}: {
  list: Pick<LoadedList<unknown>, 'restricted' | 'unavailable'>;
  what: string;
  /** The list shows only the visitor's own rows, and nobody is signed in: say so. */
  signInHint?: boolean;
}) {
  if (signInHint && !list.restricted && !list.unavailable)
    return (
      <p className="empty" data-testid="sign-in-hint">
        No {what} to show. <Link to="/login">Sign in</Link> to see your own.
      </p>
    );
  if (list.restricted)
    return (
      <p className="empty" data-testid="restricted-hint">
        No {what} to show. <Link to="/login">Sign in</Link> with an account allowed to read them.
      </p>
    );
  if (list.unavailable) return <p className="empty">No {what}: this server does not offer them.</p>;
  return <p className="empty">No {what} yet.</p>;
}

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  numeric?: boolean;
}

export function Table<T>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
}) {
  return (
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.numeric ? 'num' : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.header} className={c.numeric ? 'num' : undefined}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A list read with its loading, error and empty states. */
export function ListView<T>({
  list,
  what,
  columns,
  rowKey,
  signInHint = false,
}: {
  list: LoadedList<T>;
  what: string;
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  signInHint?: boolean;
}) {
  if (list.error) return <ErrorNotice error={list.error} />;
  if (list.loading) return <Loading what={what} />;
  if (list.items.length === 0) return <EmptyState list={list} what={what} signInHint={signInHint} />;
  return <Table caption={what} columns={columns} rows={list.items} rowKey={rowKey} />;
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status.toLowerCase()}`}>{status}</span>;
}

export function ProgressBar({
  current,
  total,
  status,
  label,
}: {
  current: number | null;
  total: number | null;
  status: string;
  label: string;
}) {
  const done = status === 'SUCCEEDED';
  const max = total !== null && total > 0 ? total : 1;
  const value = done ? max : Math.min(current ?? 0, max);
  const percent = Math.round((value / max) * 100);
  const text =
    total !== null && total > 0 ? `${current ?? 0} of ${total} (${percent}%)` : done ? 'done' : 'waiting';
  return (
    <div className="progress" data-status={status}>
      <progress
        max={max}
        value={status === 'QUEUED' && !current ? undefined : value}
        aria-label={label}
        aria-valuetext={`${status}: ${text}`}
      />
      <span className="progress-text">
        <StatusBadge status={status} /> {text}
      </span>
    </div>
  );
}

export function Fields({ entries }: { entries: [string, ReactNode][] }) {
  return (
    <dl className="fields">
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

export const ASPECT_NAMES: Record<string, string> = {
  F: 'Molecular function (MFO)',
  P: 'Biological process (BPO)',
  C: 'Cellular component (CCO)',
};

/** The filter controls above a list; they act on change, so the form never submits. */
export function FilterBar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label={label}>
      {children}
    </form>
  );
}

/**
 * A drop-down bound to one query-string key: choosing `anyValue` (listed first as `anyLabel`)
 * removes the key. Options are values, or [value, label] pairs.
 */
export function QueryFilter({
  label,
  name,
  options,
  anyLabel = 'any',
  anyValue = '',
}: {
  label: string;
  name: string;
  options: readonly (string | readonly [string, ReactNode])[];
  anyLabel?: string;
  anyValue?: string;
}) {
  const route = useRoute();
  const value = route.query.get(name) ?? anyValue;
  return (
    <label>
      {label}
      <select
        value={value}
        onChange={(e) =>
          setQuery(route, { [name]: e.target.value === anyValue ? undefined : e.target.value })
        }
      >
        <option value={anyValue}>{anyLabel}</option>
        {options.map((option) => {
          const [key, text] = typeof option === 'string' ? [option, option] : option;
          return (
            <option key={key} value={key}>
              {text}
            </option>
          );
        })}
      </select>
    </label>
  );
}

/** A link to an ontology release, named by its version when the row knows it. */
export function OntologyLink({ id, version }: { id: string; version: string | null | undefined }) {
  return <Link to={`/ontology/${id}`}>{version ?? shortId(id)}</Link>;
}

/** A search box bound to the query string's `search`; submitting starts the list from its first page. */
export function QuerySearch({ label }: { label: string }) {
  const search = useRoute().query.get('search') ?? '';
  // Another page, or Back: a new search in the address starts a new box that shows it.
  return <SearchBox key={search} label={label} initial={search} />;
}

function SearchBox({ label, initial }: { label: string; initial: string }) {
  const route = useRoute();
  const [draft, setDraft] = useState(initial);
  return (
    <form
      className="filters"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        setQuery(route, { search: draft, offset: undefined });
      }}
    >
      <label>
        {label}
        <input type="search" value={draft} onChange={(e) => setDraft(e.target.value)} />
      </label>
      <button type="submit">Search</button>
    </form>
  );
}

/** The query string's `offset`: where a paged list starts. */
export function useQueryOffset(): number {
  return Number(useRoute().query.get('offset') ?? 0);
}

/** Pages through a list by the query string's `offset`, shown once the list is longer than a page. */
export function QueryPager({ limit, total }: { limit: number; total: number }) {
  const route = useRoute();
  const offset = useQueryOffset();
  if (total <= limit) return null;
  const go = (next: number) => setQuery(route, { offset: String(next) });
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={offset === 0} onClick={() => go(Math.max(0, offset - limit))}>
        Previous
      </button>
      <span>
        {offset + 1}–{Math.min(offset + limit, total)} of {total}
      </span>
      <button type="button" disabled={offset + limit >= total} onClick={() => go(offset + limit)}>
        Next
      </button>
    </nav>
  );
}

type ReferenceView = components['schemas']['ReferenceSummaryView'];
type CoverageView = components['schemas']['CoverageView'];

/**
 * What a prediction stands on, in the words a biologist uses: the GO release, the annotation set and
 * its donors, the search, how many proteins found a homolog, and warnings in plain words.
 */
export function Backing({
  reference,
  coverage,
  warnings,
}: {
  reference: ReferenceView | null | undefined;
  coverage?: CoverageView | null;
  warnings?: string[];
}) {
  return (
    <section className="card backing" aria-labelledby="backing-heading">
      <h2 id="backing-heading">What these predictions stand on</h2>
      {(warnings ?? []).map((w) => (
        <p key={w} className="warning" role="alert">
          {w}
        </p>
      ))}
      {reference ? (
        <Fields
          entries={[
            ['Reference', reference.reference_name ?? 'loaded by hand (not an installed reference)'],
            ['GO release', reference.ontology_version],
            ['Reference annotations', reference.annotation_set_label],
            [
              'Donor proteins',
              `${fmtNum(reference.donor_proteins)} (MF ${fmtNum(reference.donor_proteins_per_aspect.F)}, BP ${fmtNum(
                reference.donor_proteins_per_aspect.P,
              )}, CC ${fmtNum(reference.donor_proteins_per_aspect.C)}; ${
                reference.donor_evidence === 'experimental'
                  ? 'experimental evidence only'
                  : 'all evidence, electronic included'
              })`,
            ],
            [
              'Donor species',
              reference.donor_species.map((s) => `${s.taxon} (${fmtNum(s.proteins)})`).join(', ') || '—',
            ],
            [
              'Search',
              `${reference.search_backend}${reference.blend_version ? `, blend ${reference.blend_version}` : ''}${
                reference.blend_donor_evidence
                  ? ` (calibrated with ${reference.blend_donor_evidence === 'experimental' ? 'experimental evidence' : 'all evidence'} donors)`
                  : ''
              }`,
            ],
            [
              'Reference proteins as queries',
              reference.self_transfer
                ? 'their own annotations are shown as known (score 1), apart from predictions'
                : 'never donate to themselves (evaluation mode)',
            ],
            ...(coverage
              ? ([
                  [
                    'Proteins',
                    `${fmtNum(coverage.queries)}: ${fmtNum(coverage.with_homolog - coverage.known)} with homology, ${fmtNum(
                      coverage.known,
                    )} known, ${fmtNum(coverage.without_homolog)} on the prior alone`,
                  ],
                ] as [string, ReactNode][])
              : []),
          ]}
        />
      ) : (
        <p className="muted">Not recorded for this set (made before references were recorded).</p>
      )}
      <p className="muted small">
        A score is the calibrated chance that the term will be confirmed experimentally; a prior-only term
        scores how common the term is among the reference proteins, whatever the sequence.
      </p>
    </section>
  );
}
