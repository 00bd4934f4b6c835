import { LOAD_QUICKGO_ANNOTATIONS, LoadQuickGoAnnotationsPayload } from '@svc/contracts';
import { defineOperation, JobError, recordProgress } from '@svc/jobs';
import { AnnotationRow } from '@svc/persistence';
import { fetchWithRetry, isSettingFailure, sourcePolicyOf } from '@svc/platform';
import { LineProblems, resolverForSnapshot } from './annotation-resolver';
import { sourceFailure } from './source-failure';

/** One annotation of QuickGO's `annotation/search` answer (the fields this service keeps). */
interface QuickGoAnnotation {
  geneProductId?: string;
  qualifier?: string;
  goId?: string;
  goEvidence?: string;
  evidenceCode?: string;
  goAspect?: string;
  reference?: string;
  withFrom?: { connectedXrefs?: { db?: string; id?: string }[] }[] | null;
  taxonId?: number | string;
  assignedBy?: string;
  date?: string;
  symbol?: string;
  extensions?: unknown;
}

interface QuickGoPage {
  numberOfHits?: number;
  results?: QuickGoAnnotation[];
  pageInfo?: { resultsPerPage?: number; current?: number; total?: number };
}

const ASPECTS: Record<string, 'F' | 'P' | 'C'> = {
  molecular_function: 'F',
  biological_process: 'P',
  cellular_component: 'C',
};

function withFromText(value: QuickGoAnnotation['withFrom']): string | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  return value
    .map((group) => (group.connectedXrefs ?? []).map((x) => `${x.db ?? ''}:${x.id ?? ''}`).join(','))
    .filter((text) => text !== '')
    .join('|');
}

/**
 * Pages through QuickGO's annotation search (base URL from SVC_QUICKGO_BASE_URL) into a new
 * annotation set, with the same row model and atomicity as a GAF load.
 */
export const loadQuickGoAnnotationsOperation = defineOperation<LoadQuickGoAnnotationsPayload>({
  spec: LOAD_QUICKGO_ANNOTATIONS,
  async execute({ job, payload, emit, repos, config, artifacts, signal, logger }) {
    const sources = sourcePolicyOf(config, artifacts);
    const { snapshot, resolver } = await resolverForSnapshot(repos, payload.ontology_snapshot_id);
    const problems = new LineProblems();
    const pageSize = payload.page_size ?? 100;
    const query = new URLSearchParams({ limit: String(pageSize) });
    if (payload.gene_product_ids !== undefined)
      query.set('geneProductId', payload.gene_product_ids.join(','));
    if (payload.taxon_id !== undefined) query.set('taxonId', payload.taxon_id);
    if (payload.go_evidence !== undefined) query.set('goEvidence', payload.go_evidence);
    const base = `${config.quickgoBaseUrl}/annotation/search`;
    const { value, set } = await repos.annotations.withinLoad(
      {
        source: 'quickgo',
        sourceVersion: payload.source_version,
        snapshotId: snapshot.id,
        sourceUrl: `${base}?${query.toString()}`,
        jobId: job.id,
      },
      async (load) => {
        let page = 1;
        let totalPages = 1;
        let received = 0;
        do {
          query.set('page', String(page));
          const response = await fetchWithRetry(`${base}?${query.toString()}`, sources, {
            headers: { accept: 'application/json' },
          }).catch((error: Error) => {
            if (isSettingFailure(error)) throw new JobError(error.code, error.message);
            throw new JobError('source_unreachable', `QuickGO did not answer: ${error.message}`);
          });
          if (!response.ok)
            throw new JobError('source_unreachable', `QuickGO answered ${response.status} for page ${page}`);
          const body = (await response.json().catch((error: unknown) => {
            throw sourceFailure(error);
          })) as QuickGoPage;
          totalPages = body.pageInfo?.total ?? 1;
          const rows: AnnotationRow[] = [];
          for (const [index, a] of (body.results ?? []).entries()) {
            received += 1;
            const position = (page - 1) * pageSize + index + 1;
            if (
              a.geneProductId === undefined ||
              a.goId === undefined ||
              (a.goEvidence ?? a.evidenceCode) === undefined
            ) {
              problems.add(position, 'annotation without geneProductId, goId or evidence');
              continue;
            }
            const term = resolver.resolve(a.goId);
            if (term === null) continue;
            const qualifier = a.qualifier ?? null;
            const [db, ...rest] = a.geneProductId.split(':');
            rows.push({
              proteinAccession: rest.length > 0 ? rest.join(':') : a.geneProductId,
              goTermId: term.id,
              goId: term.go_id,
              aspect: term.aspect ?? ASPECTS[a.goAspect ?? ''] ?? null,
              qualifier,
              isNot: qualifier !== null && /^not\|/i.test(qualifier),
              evidenceCode: (a.goEvidence ?? a.evidenceCode)!,
              db: rest.length > 0 ? (db ?? null) : null,
              dbObjectSymbol: a.symbol ?? null,
              dbReference: a.reference ?? null,
              withFrom: withFromText(a.withFrom),
              taxonId: a.taxonId === undefined ? null : String(a.taxonId),
              annotationDate:
                a.date !== undefined && /^\d{8}$/.test(a.date)
                  ? `${a.date.slice(0, 4)}-${a.date.slice(4, 6)}-${a.date.slice(6)}`
                  : null,
              assignedBy: a.assignedBy ?? null,
              annotationExtension:
                a.extensions === undefined || a.extensions === null ? null : JSON.stringify(a.extensions),
              geneProductFormId: null,
            });
          }
          await load.insert(rows);
          // Not awaited, and the cancel read from the signal: see load_goa_annotations.
          recordProgress(
            emit('load_quickgo_annotations.page', null, {
              page,
              total_pages: totalPages,
              progress_current: page,
              progress_total: totalPages,
            }),
            logger,
          );
          signal.throwIfAborted();
          page += 1;
        } while (page <= totalPages && (payload.max_pages === undefined || page <= payload.max_pages));
        const records = received - problems.count;
        resolver.checkAgainst(
          snapshot,
          records,
          payload.max_unresolved_ratio ?? 0.05,
          'QuickGO serves the current GO release',
        );
        const stats = { pages: page - 1, received, malformed: problems.count, ...resolver.stats(records) };
        return { value: stats, stats };
      },
    );
    const result = {
      annotation_set_id: set.id,
      annotation_count: set.annotation_count,
      ...value,
      malformed_samples: problems.samples,
    };
    await emit('load_quickgo_annotations.done', null, {
      annotation_set_id: set.id,
      annotation_count: set.annotation_count,
    });
    return result;
  },
});
