import type { Coverage, ReferenceSummary } from '@svc/domain';

/**
 * What `svc annotate` tells the person at the terminal about the answer: the reference it stands on
 * (before the run) and how much of it rests on homology (after), in a few plain lines.
 */
export function referenceLines(reference: ReferenceSummary): string[] {
  const { F, P, C } = reference.donor_proteins_per_aspect;
  const species = reference.donor_species
    .slice(0, 3)
    .map((s) => `${s.taxon} ${s.proteins}`)
    .join(', ');
  return [
    `reference: ${reference.reference_name === null ? '' : `${reference.reference_name} — `}GO ${reference.ontology_version}; annotations ${reference.annotation_set_label}`,
    `  donors: ${reference.donor_proteins} proteins (MF ${F}, BP ${P}, CC ${C}; ${reference.donor_evidence === 'experimental' ? 'experimental evidence' : 'all evidence, electronic included'})${species === '' ? '' : `; species ${species}`}`,
    `  search: ${reference.search_backend}${reference.blend_version === null ? '' : `, blend ${reference.blend_version}${calibrationNote(reference)}`}${reference.self_transfer ? "; a reference protein's own annotations come back as known" : ''}`,
  ];
}

/** Said only when the donors differ from those the blend's calibration was fitted with. */
function calibrationNote(reference: ReferenceSummary): string {
  const fitted = reference.blend_donor_evidence ?? null;
  if (fitted === null || fitted === reference.donor_evidence) return '';
  return ` (calibrated with ${fitted === 'experimental' ? 'experimental evidence' : 'all evidence'} donors, not these)`;
}

export function coverageLine(coverage: Coverage | null): string {
  if (coverage === null) return 'proteins: coverage not recorded for this set';
  const prior = coverage.without_homolog;
  const homology = coverage.with_homolog - coverage.known;
  return (
    `proteins: ${coverage.queries} — ${homology} with homology, ${coverage.known} known (reference proteins), ` +
    `${prior} on the prior alone (${(100 * coverage.without_homolog_share).toFixed(0)} %)`
  );
}

export function warningLines(warnings: readonly string[] | undefined): string[] {
  return (warnings ?? []).map((w) => `warning: ${w}`);
}

/**
 * What a prediction that has not ticked yet is doing, from its newest event: a search-ahead step's
 * DIAMOND search over many queries takes minutes on a large reference before the first batch ticks.
 * Null when the newest event says nothing of the kind.
 */
export function searchPhase(
  newest: { event: string; fields?: Record<string, unknown> | null } | undefined,
): string | null {
  if (newest?.event === 'predict_go_terms_search.done') return 'searched; scoring the first batch';
  if (newest?.event !== 'predict_go_terms_search.started') return null;
  const queries = Number(newest.fields?.['queries']);
  return Number.isFinite(queries) && queries > 0
    ? `searching ${queries.toLocaleString('en-US')} queries with DIAMOND`
    : 'searching with DIAMOND';
}

/**
 * What became of the known terms the FASTA listed (GO=), summed over the batches' events: how many
 * were taken as submitted, how many the GO release does not hold, and how many proteins' lists matched
 * no reference protein (too generic to inform their prediction). Empty when no batch reports any.
 */
export function submittedLines(
  events: readonly { event: string; fields?: Record<string, unknown> | null }[],
): string[] {
  let queries = 0;
  let ids = 0;
  let unknown = 0;
  let unmatched = 0;
  const samples: string[] = [];
  for (const e of events) {
    if (e.event !== 'predict_go_terms_batch.done') continue;
    const known = e.fields?.['submitted_known'] as Record<string, unknown> | undefined;
    if (known === undefined || known === null) continue;
    queries += Number(known['queries']) || 0;
    ids += Number(known['ids']) || 0;
    unknown += Number(known['unknown_ids']) || 0;
    unmatched += Number(known['queries_unmatched']) || 0;
    for (const id of (known['unknown_sample'] as unknown[] | undefined) ?? [])
      if (typeof id === 'string' && samples.length < 3 && !samples.includes(id)) samples.push(id);
  }
  if (queries === 0) return [];
  const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  const lines = [
    `known terms: ${plural(ids, 'GO id', 'GO ids')} listed for ${plural(queries, 'protein', 'proteins')} (GO=); they come back as submitted, not predicted`,
  ];
  if (unknown > 0)
    lines.push(
      `warning: ${plural(unknown, 'listed GO id is', 'listed GO ids are')} not a live term of the run's GO release and ${unknown === 1 ? 'was' : 'were'} left out (${samples.join(', ')})`,
    );
  if (unmatched > 0)
    lines.push(
      `warning: the listed terms of ${plural(unmatched, 'protein', 'proteins')} matched no reference protein (too generic, or carried by none) and did not change ${unmatched === 1 ? 'its' : 'their'} prediction: list the most specific terms known`,
    );
  return lines;
}
