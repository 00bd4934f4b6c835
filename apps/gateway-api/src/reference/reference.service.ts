import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DomainError, FieldError, isUuid, ListProteinsQuery, notFound } from '@svc/contracts';
import {
  FastaResult,
  listScope,
  md5Hex,
  parseFasta,
  parseGeneNameTag,
  parseKnownGoTag,
  parseNcbiTaxonId,
  parseSpeciesTags,
  Viewer,
} from '@svc/domain';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { Principal } from '@svc/platform';
import {
  AnnotationRepository,
  JobRepository,
  NewOwnership,
  OntologyRepository,
  ProteinRepository,
  QuerySetEntryInput,
  QuerySetRepository,
  ReferenceCheckRepository,
} from '@svc/persistence';
import { CachedValue } from '../common/cached-value';
import { checkAccess, newOwnershipFor } from '../common/ownership';
import { checkSourceField, gatewaySourcePolicy } from '../sources/source-checks';

const CACHE_TTL_MS = 5 * 60 * 1000;
const MAX_DEPTH_DEFAULT = 3;
// Names are shown in lists and descriptions on detail pages; neither needs more.
const QUERY_SET_NAME_MAX_LENGTH = 200;
const QUERY_SET_DESCRIPTION_MAX_LENGTH = 2000;
// A gene symbol is short; the bound keeps column 3 of a GAF line (the symbol) readable.
const QUERY_GENE_NAME_MAX_LENGTH = 200;
// The FASTA reader already refuses a header with a control character other than tab; a tab in a
// gene name would still split a GAF column.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** A checked query-set upload, ready to store. */
export interface QuerySetUpload {
  name: string;
  description: string | null;
  entries: QuerySetEntryInput[];
}

/** What a FASTA upload's description says of the GO= header tag (docs/prediction.md, "Known terms of a new protein"). */
export const KNOWN_TERMS_HEADER =
  'A header may list GO terms already known of the protein, GO=GO:0004672,GO:0005524 (at most 300; a malformed list is a 422 naming its line): ' +
  'they inform its prediction and come back as submitted, never predicted';

/** The OpenAPI description of the `taxon` form field of a FASTA upload. */
export const TAXON_FIELD =
  'NCBI taxonomy id (a positive integer, e.g. 9606) of the records whose FASTA header has no OX=; ' +
  'the taxon of their GAF lines (422 if it is not one)';

/**
 * The upload's `taxon` field: the NCBI taxonomy id of the records whose header has no OX=; null when
 * the form has none. A value that is not a positive integer id is a problem of the upload.
 */
function uploadTaxon(text: string | null | undefined): { taxon: number | null; problems: FieldError[] } {
  if (text === null || text === undefined || text.trim() === '') return { taxon: null, problems: [] };
  const taxon = parseNcbiTaxonId(text);
  if (taxon !== null) return { taxon, problems: [] };
  return {
    taxon: null,
    problems: [
      { path: 'taxon', message: 'taxon must be an NCBI taxonomy id: a positive integer, e.g. 9606' },
    ],
  };
}

/**
 * A record's gene name: its header's GN=, the symbol (column 3) of its GAF lines. Like an OX= that
 * is no taxon id, a GN= the service does not keep (longer than QUERY_GENE_NAME_MAX_LENGTH, or holding
 * a control character such as a tab) is ignored rather than refused: the record is still a query,
 * and its GAF lines repeat its identifier.
 */
function queryGeneName(description: string): string | null {
  const gene = parseGeneNameTag(description);
  return gene !== null && gene.length <= QUERY_GENE_NAME_MAX_LENGTH && !CONTROL_CHARACTER.test(gene)
    ? gene
    : null;
}

/** The ids of a record's checked GO= list; null without one (a malformed list was refused before). */
function knownIdsOf(known: ReturnType<typeof parseKnownGoTag> | undefined): string[] | null {
  return known && 'ids' in known ? known.ids : null;
}

function tooLong(path: string, value: string | null, max: number): FieldError[] {
  return value !== null && value.length > max
    ? [{ path, message: `${path} is longer than ${max} characters` }]
    : [];
}

/** Reads of proteins, ontology snapshots, annotation sets and query sets, and query-set uploads. */
/** The operations whose success changes the protein statistics. */
const PROTEIN_STATS_WRITERS = [
  'insert_proteins',
  'fetch_uniprot_metadata',
  'load_goa_annotations',
  'load_quickgo_annotations',
  'compute_embeddings',
  'purge_expired_results',
];

@Injectable()
export class ReferenceService implements OnModuleInit, OnModuleDestroy {
  readonly proteinStats: CachedValue<Record<string, number>>;

  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    readonly proteins: ProteinRepository,
    readonly ontology: OntologyRepository,
    readonly annotations: AnnotationRepository,
    readonly querySets: QuerySetRepository,
    jobs: JobRepository,
    private readonly references: ReferenceCheckRepository,
  ) {
    this.proteinStats = new CachedValue(
      'protein_stats',
      () => this.proteins.stats(),
      CACHE_TTL_MS,
      infra.logger.child('gateway.cache'),
      () => jobs.lastSucceededAt(PROTEIN_STATS_WRITERS),
    );
  }

  onModuleInit(): void {
    this.proteinStats.start();
  }

  onModuleDestroy(): void {
    this.proteinStats.stop();
  }

  listProteins(query: ListProteinsQuery) {
    return this.proteins.list({
      search: query.search,
      reviewed: query.reviewed,
      canonicalOnly: query.canonical_only ?? true,
      limit: query.limit ?? 50,
      offset: query.offset ?? 0,
    });
  }

  async proteinAnnotations(accession: string, annotationSetId?: string) {
    if (!(await this.proteins.exists(accession))) throw notFound('Protein');
    if (annotationSetId !== undefined) await this.annotations.getById(annotationSetId);
    return this.annotations.forProtein(accession, annotationSetId);
  }

  snapshot(id: string) {
    return this.ontology.getById(this.uuid(id, 'Ontology snapshot'));
  }

  async subgraph(id: string, goIds: string, depth: number | undefined) {
    await this.snapshot(id);
    const ids = goIds
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const bad = ids.filter((s) => !/^GO:\d{7}$/.test(s));
    if (bad.length > 0) {
      throw new DomainError('validation_error', `not GO ids: ${bad.slice(0, 5).join(', ')}`, {}, [
        { path: 'go_ids', message: 'expected GO:NNNNNNN ids' },
      ]);
    }
    return this.ontology.subgraph(id, ids, depth ?? MAX_DEPTH_DEFAULT);
  }

  async setIaUrl(id: string, iaUrl: string | null) {
    const value = iaUrl === null || iaUrl.trim() === '' ? null : iaUrl.trim();
    const snapshotId = this.uuid(id, 'Ontology snapshot');
    if (value !== null) await checkSourceField('ia_url', value, gatewaySourcePolicy(this.infra));
    return this.ontology.setIaUrl(snapshotId, value);
  }

  annotationSet(id: string) {
    return this.annotations.getById(this.uuid(id, 'Annotation set'));
  }

  deleteAnnotationSet(id: string) {
    return this.annotations.delete(this.uuid(id, 'Annotation set'));
  }

  /** Public sets and the viewer's own; unlisted ones never (they are reached by their id). */
  listQuerySets(viewer: Viewer, mine: boolean) {
    return this.querySets.list(listScope(viewer, mine));
  }

  async querySet(id: string, viewer: Viewer) {
    await this.requireQuerySet(id, viewer, 'read');
    return this.querySets.detail(id);
  }

  async deleteQuerySet(id: string, viewer: Viewer) {
    await this.requireQuerySet(id, viewer, 'modify');
    return this.querySets.delete(id);
  }

  /** 404 when the viewer may not read the set (or there is none), 403 when they may read but not change it. */
  async requireQuerySet(id: string, viewer: Viewer, access: 'read' | 'modify'): Promise<void> {
    await checkAccess(this.references, {
      table: 'query_set',
      id,
      entity: 'Query set',
      viewer,
      access,
    });
  }

  /** The ownership of a set the caller uploads; `saveHistory: false` makes it unlisted and expiring. */
  ownershipFor(principal: Principal | undefined, saveHistory?: boolean): NewOwnership {
    return newOwnershipFor({
      principal,
      saveHistory,
      retentionDays: this.infra.config.security.guestResultRetentionDays,
    });
  }

  /**
   * One query set per file, one sequence per distinct string, one entry per record (422 lists every
   * problem). `ownership` says whose history it joins, or that it is an unlisted, expiring result.
   */
  async uploadQuerySet(input: {
    name: string;
    description: string | null;
    fasta: string | FastaResult;
    taxon?: string | null;
    ownership: NewOwnership;
  }) {
    return this.saveQuerySetUpload(this.prepareQuerySetUpload(input), input.ownership);
  }

  /**
   * Parses and checks an upload without storing anything: every FASTA problem, an over-long name or
   * description and a `taxon` that is no NCBI taxonomy id are listed in one 422. Callers that charge a
   * quota do so between this and the save. A record's taxon is its header's OX=, else `taxon`; its
   * gene name is its header's GN= (queryGeneName); its known terms its header's GO= (parseKnownGoTag),
   * a malformed one refused with its line.
   */
  prepareQuerySetUpload(input: {
    name: string;
    description: string | null;
    fasta: string | FastaResult;
    taxon?: string | null;
  }): QuerySetUpload {
    const parsed = typeof input.fasta === 'string' ? parseFasta(input.fasta) : input.fasta;
    const given = uploadTaxon(input.taxon);
    // GO= (the terms the submitter knows of the protein) is checked as a whole: a malformed list is a
    // problem of its line, never read in part.
    const knownGoIds = parsed.records.map((record) => parseKnownGoTag(record.description));
    const problems: FieldError[] = [
      ...tooLong('name', input.name, QUERY_SET_NAME_MAX_LENGTH),
      ...tooLong('description', input.description, QUERY_SET_DESCRIPTION_MAX_LENGTH),
      ...given.problems,
      ...parsed.problems.map((p) => ({ path: `file:${p.lineNumber}`, message: p.message })),
      ...parsed.records.flatMap((record, i) => {
        const known = knownGoIds[i];
        return known && 'problem' in known
          ? [{ path: `file:${record.lineNumber}`, message: `line ${record.lineNumber}: ${known.problem}` }]
          : [];
      }),
    ];
    if (problems.length > 0) {
      throw new DomainError(
        'validation_error',
        `the upload has ${problems.length} problem(s): ${problems
          .slice(0, 3)
          .map((p) => p.message)
          .join('; ')}`,
        {},
        problems.slice(0, 200),
      );
    }
    const entries = parsed.records.map((record, i): QuerySetEntryInput => {
      const tags = parseSpeciesTags(record.description);
      const own = tags.taxonomyId !== null ? parseNcbiTaxonId(tags.taxonomyId) : null;
      return {
        accession: record.identifier,
        sequence: record.sequence,
        hash: md5Hex(record.sequence),
        species: tags.organism,
        taxonomyId: own ?? given.taxon,
        geneName: queryGeneName(record.description),
        knownGoIds: knownIdsOf(knownGoIds[i]),
      };
    });
    return { name: input.name, description: input.description, entries };
  }

  saveQuerySetUpload(upload: QuerySetUpload, ownership: NewOwnership) {
    return this.querySets.create({ ...upload, ownership });
  }

  private uuid(id: string, entity: string): string {
    if (!isUuid(id)) throw notFound(entity);
    return id;
  }
}
