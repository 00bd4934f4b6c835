/**
 * What a prediction stands on (docs/prediction.md, "What backs a prediction"): the reference it was
 * made against, and per query how much homology backs its terms. Every answer of a prediction (the
 * job's result, the set's detail, the exports, the CLI and the pages) carries these.
 */

export type Aspect = 'F' | 'P' | 'C';

export interface ReferenceSummary {
  /** The installed reference (`svc reference install`) whose annotation set this is; null otherwise. */
  reference_name: string | null;
  ontology_snapshot_id: string;
  ontology_version: string;
  annotation_set_id: string;
  /** `source source_version`, e.g. `goa gene2go-2022-09-12`. */
  annotation_set_label: string;
  annotation_source_version: string;
  /** Which annotations may donate: experimental codes only, or every code (electronic included). */
  donor_evidence: 'experimental' | 'all';
  /** Proteins with a sequence and a donor annotation, in total and per aspect. */
  donor_proteins: number;
  donor_proteins_per_aspect: Record<Aspect, number>;
  /** The donor proteins' species, most donors first (at most five), as GAF taxa (`taxon:9606`). */
  donor_species: { taxon: string; proteins: number }[];
  search_backend: string;
  /** The homology blend's version; null for the embedding backends. */
  blend_version: string | null;
  /** The query's own annotations come back as known terms (annotation mode), not as predictions. */
  self_transfer: boolean;
}

/** Per query: what its terms rest on. */
export interface QuerySummary {
  accession: string;
  /** Homologs (DIAMOND hits) or neighbours its terms could come from, after self-exclusion. */
  homologs: number;
  /** The best identity among them (0-1); null without a homolog or for the embedding backends. */
  best_identity: number | null;
  /** Its own annotations reported as known (annotation mode, a reference protein). */
  known_terms: number;
}

export type QueryBasis = 'homology' | 'prior' | 'known';

/** `known` when its own annotations are reported, else `homology` with a homolog, else `prior`. */
export function basisOf(summary: Pick<QuerySummary, 'homologs' | 'known_terms'>): QueryBasis {
  if (summary.known_terms > 0) return 'known';
  return summary.homologs > 0 ? 'homology' : 'prior';
}

export interface Coverage {
  queries: number;
  /** Queries backed by homologs or by their own known annotations. */
  with_homolog: number;
  /** Queries whose terms rest on the prior alone (no homolog, nothing known). */
  without_homolog: number;
  /** without_homolog / queries, 4 decimals; 0 for no query. */
  without_homolog_share: number;
  /** Queries whose own annotations are reported as known. */
  known: number;
}

export function coverageOf(counts: { queries: number; without_homolog: number; known: number }): Coverage {
  const { queries, without_homolog, known } = counts;
  return {
    queries,
    with_homolog: queries - without_homolog,
    without_homolog,
    without_homolog_share: queries === 0 ? 0 : Number((without_homolog / queries).toFixed(4)),
    known,
  };
}

/** Below this many donor proteins a reference is a demonstration, not a reference. */
export const SMALL_REFERENCE_DONORS = 1000;
/** Above this share of queries without a homolog, most answers are the prior alone. */
export const LOW_COVERAGE_SHARE = 0.5;

/**
 * The plain-words warnings an answer carries: a small reference, most queries without a homolog.
 * Either may be known before the run (the reference) or only after it (the coverage).
 */
export function provenanceWarnings(reference: ReferenceSummary | null, coverage: Coverage | null): string[] {
  const warnings: string[] = [];
  if (reference !== null && reference.donor_proteins < SMALL_REFERENCE_DONORS)
    warnings.push(
      `The reference is small: ${reference.donor_proteins} donor proteins (annotation set ` +
        `${reference.annotation_set_label}, GO ${reference.ontology_version}). Most proteins will find no ` +
        'homolog in it and get only the prior (terms common to all proteins); load a full reference ' +
        '(README, "A real reference") for real annotations.',
    );
  if (coverage !== null && coverage.queries > 0 && coverage.without_homolog_share > LOW_COVERAGE_SHARE)
    warnings.push(
      `${coverage.without_homolog} of ${coverage.queries} proteins ` +
        `(${(100 * coverage.without_homolog_share).toFixed(0)} %) found no homolog in the reference: ` +
        'their terms rest on the prior alone (how common each term is), not on their sequence.',
    );
  return warnings;
}

/**
 * The reference and coverage as `key: value` pairs, for the header of every export (GAF header
 * lines, the TSV's comment line): what the file's predictions stand on.
 */
export function provenanceHeader(
  reference: ReferenceSummary | null,
  coverage: Coverage | null,
): Record<string, string> {
  if (reference === null) return { reference: 'not recorded (a set made before references were recorded)' };
  const perAspect = reference.donor_proteins_per_aspect;
  const header: Record<string, string> = {
    ...(reference.reference_name !== null ? { reference: reference.reference_name } : {}),
    'go-version': reference.ontology_version,
    'reference-annotations': `${reference.annotation_set_label} (${reference.donor_evidence === 'experimental' ? 'experimental evidence codes donate' : 'every evidence code donates, electronic included'})`,
    'reference-donors': `${reference.donor_proteins} proteins (F ${perAspect.F}, P ${perAspect.P}, C ${perAspect.C})`,
    'reference-species':
      reference.donor_species.map((s) => `${s.taxon} (${s.proteins})`).join(', ') || 'none',
    'search-backend': reference.search_backend,
    'blend-version': reference.blend_version ?? 'none (embedding neighbours)',
    'self-transfer': reference.self_transfer
      ? "yes: a reference protein's own annotations are reported as known"
      : 'no: a query never donates to itself',
  };
  if (coverage !== null)
    header['coverage'] =
      `${coverage.with_homolog} of ${coverage.queries} proteins with a homolog; ` +
      `${coverage.without_homolog} on the prior alone; ${coverage.known} with known terms`;
  // Labels come from uploads: no line break or tab may reach a header line.
  for (const key of Object.keys(header)) header[key] = header[key]!.replace(/[\t\r\n]+/g, ' ');
  return header;
}

/** The same pairs as one comment line of a TSV export: `# key: value; key: value`. */
export function provenanceComment(header: Record<string, string>): string {
  return `# ${Object.entries(header)
    .map(([key, value]) => `${key}: ${value.replace(/;/g, ',')}`)
    .join('; ')}`;
}
