import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DomainError, isUuid, ListProteinsQuery, notFound } from '@svc/contracts';
import { md5Hex, parseFasta, parseSpeciesTags } from '@svc/domain';
import { INFRASTRUCTURE, Infrastructure } from '@svc/jobs';
import {
  AnnotationRepository,
  OntologyRepository,
  ProteinRepository,
  QuerySetRepository,
} from '@svc/persistence';
import { CachedValue } from '../common/cached-value';

const CACHE_TTL_MS = 5 * 60 * 1000;
const MAX_DEPTH_DEFAULT = 3;

/** Reads of proteins, ontology snapshots, annotation sets and query sets, and query-set uploads. */
@Injectable()
export class ReferenceService implements OnModuleInit, OnModuleDestroy {
  readonly proteins: ProteinRepository;
  readonly ontology: OntologyRepository;
  readonly annotations: AnnotationRepository;
  readonly querySets: QuerySetRepository;
  readonly proteinStats: CachedValue<Record<string, number>>;

  constructor(@Inject(INFRASTRUCTURE) infra: Infrastructure) {
    this.proteins = new ProteinRepository(infra.db);
    this.ontology = new OntologyRepository(infra.db);
    this.annotations = new AnnotationRepository(infra.db);
    this.querySets = new QuerySetRepository(infra.db);
    this.proteinStats = new CachedValue(
      'protein_stats',
      () => this.proteins.stats(),
      CACHE_TTL_MS,
      infra.logger.child('gateway.cache'),
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
    return this.ontology.setIaUrl(this.uuid(id, 'Ontology snapshot'), value);
  }

  annotationSet(id: string) {
    return this.annotations.getById(this.uuid(id, 'Annotation set'));
  }

  deleteAnnotationSet(id: string) {
    return this.annotations.delete(this.uuid(id, 'Annotation set'));
  }

  querySet(id: string) {
    return this.querySets.detail(this.uuid(id, 'Query set'));
  }

  deleteQuerySet(id: string) {
    return this.querySets.delete(this.uuid(id, 'Query set'));
  }

  /** One query set per file, one sequence per distinct string, one entry per record (422 lists every problem). */
  async uploadQuerySet(input: { name: string; description: string | null; fasta: string }) {
    const parsed = parseFasta(input.fasta);
    if (parsed.problems.length > 0) {
      throw new DomainError(
        'validation_error',
        `the FASTA file has ${parsed.problems.length} problem(s): ${parsed.problems
          .slice(0, 3)
          .map((p) => p.message)
          .join('; ')}`,
        {},
        parsed.problems.slice(0, 200).map((p) => ({ path: `file:${p.lineNumber}`, message: p.message })),
      );
    }
    const entries = parsed.records.map((record) => {
      const tags = parseSpeciesTags(record.description);
      const taxon = tags.taxonomyId !== null ? Number(tags.taxonomyId) : null;
      return {
        accession: record.identifier,
        sequence: record.sequence,
        hash: md5Hex(record.sequence),
        species: tags.organism,
        taxonomyId: taxon !== null && Number.isSafeInteger(taxon) ? taxon : null,
      };
    });
    return this.querySets.create({ name: input.name, description: input.description, entries });
  }

  private uuid(id: string, entity: string): string {
    if (!isUuid(id)) throw notFound(entity);
    return id;
  }
}
