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
  /**
   * The donor policy the blend's calibration was fitted with (`donor_evidence` of the blend model);
   * null for the embedding backends. Absent from sets recorded before it was.
   */
  blend_donor_evidence: 'experimental' | 'all' | null;
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

/** What each warning is about, stable for programs; its message is for people. */
export type ProvenanceWarningCode =
  'small_reference' | 'donor_policy_differs_from_calibration' | 'low_coverage';

export interface ProvenanceWarning {
  code: ProvenanceWarningCode;
  message: string;
}

const DONOR_POLICY_WORDS: Record<ReferenceSummary['donor_evidence'], string> = {
  experimental: 'experimental evidence codes only',
  all: 'every evidence code, electronic (IEA) included',
};

/**
 * The warnings an answer carries, in plain words with a stable code: a small reference, donors
 * chosen otherwise than the blend's calibration was fitted with, most queries without a homolog.
 * The first two are known before the run (the reference), the last only after it (the coverage).
 */
export function provenanceWarningList(
  reference: ReferenceSummary | null,
  coverage: Coverage | null,
): ProvenanceWarning[] {
  const warnings: ProvenanceWarning[] = [];
  if (reference !== null && reference.donor_proteins < SMALL_REFERENCE_DONORS)
    warnings.push({
      code: 'small_reference',
      message:
        `The reference is small: ${reference.donor_proteins} donor proteins (annotation set ` +
        `${reference.annotation_set_label}, GO ${reference.ontology_version}). Most proteins will find no ` +
        'homolog in it and get only the prior (terms common to all proteins); load a full reference ' +
        '(README, "A real reference") for real annotations.',
    });
  // A set recorded before the fitted policy was has it undefined: nothing is known, nothing is said.
  const fitted = reference?.blend_donor_evidence ?? null;
  if (reference !== null && fitted !== null && fitted !== reference.donor_evidence)
    warnings.push({
      code: 'donor_policy_differs_from_calibration',
      message:
        `This run transfers annotations of ${DONOR_POLICY_WORDS[reference.donor_evidence]}, but the ` +
        `scores of ${reference.blend_version ?? 'the blend'} were calibrated transferring annotations of ` +
        `${DONOR_POLICY_WORDS[fitted]}: a score no longer reads as the share of such terms later ` +
        'confirmed by experiment.',
    });
  if (coverage !== null && coverage.queries > 0 && coverage.without_homolog_share > LOW_COVERAGE_SHARE)
    warnings.push({
      code: 'low_coverage',
      message:
        `${coverage.without_homolog} of ${coverage.queries} proteins ` +
        `(${(100 * coverage.without_homolog_share).toFixed(0)} %) found no homolog in the reference: ` +
        'their terms rest on the prior alone (how common each term is), not on their sequence.',
    });
  return warnings;
}

/** The warnings' messages (`warnings` of every answer). */
export function provenanceWarnings(reference: ReferenceSummary | null, coverage: Coverage | null): string[] {
  return provenanceWarningList(reference, coverage).map((w) => w.message);
}

/** The warnings' codes, in the order of their messages (`warning_codes` of every answer). */
export function provenanceWarningCodes(
  reference: ReferenceSummary | null,
  coverage: Coverage | null,
): ProvenanceWarningCode[] {
  return provenanceWarningList(reference, coverage).map((w) => w.code);
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
    // Absent from sets recorded before the fitted policy was.
    ...(reference.blend_donor_evidence != null
      ? {
          'blend-calibration': `fitted transferring annotations of ${DONOR_POLICY_WORDS[reference.blend_donor_evidence]}`,
        }
      : {}),
    'self-transfer': reference.self_transfer
      ? "yes: a reference protein's own annotations are reported as known"
      : 'no: a query never donates to itself',
  };
  if (coverage !== null)
    header['coverage'] =
      `${coverage.with_homolog} of ${coverage.queries} proteins with a homolog; ` +
      `${coverage.without_homolog} on the prior alone; ${coverage.known} with known terms`;
  const codes = provenanceWarningCodes(reference, coverage);
  if (codes.length > 0) header['warnings'] = codes.join(', ');
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
