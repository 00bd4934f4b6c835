import { LOAD_GOA_ANNOTATIONS, LoadGoaAnnotationsPayload } from '@svc/contracts';
import { GafReader } from '@svc/domain';
import { defineOperation, JobError, recordProgress } from '@svc/jobs';
import { AnnotationRow } from '@svc/persistence';
import { readLines, sourcePolicyOf } from '@svc/platform';
import { LineProblems, releaseHint, resolverForSnapshot } from './annotation-resolver';
import { sourceFailure } from './source-failure';

const BATCH = 5000;
const DEFAULT_MAX_ERROR_RATIO = 0.05;
const DEFAULT_MAX_UNRESOLVED_RATIO = 0.05;

function gafDate(yyyymmdd: string): string | null {
  return /^\d{8}$/.test(yyyymmdd)
    ? `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}`
    : null;
}

/**
 * Streams a GAF 2.1/2.2 file into a new annotation set, in batches, inside one transaction: the set
 * and all its rows commit together or not at all. Unknown and obsolete GO ids are counted and skipped,
 * and the job fails `ontology_mismatch` above their tolerated share; malformed lines are reported with
 * their line numbers, and the job fails only above the error ratio.
 */
export const loadGoaAnnotationsOperation = defineOperation<LoadGoaAnnotationsPayload>({
  spec: LOAD_GOA_ANNOTATIONS,
  async execute({ job, payload, emit, repos, config, artifacts, signal, logger }) {
    const started = Date.now();
    const { snapshot, resolver } = await resolverForSnapshot(repos, payload.ontology_snapshot_id);
    const problems = new LineProblems();
    const reader = new GafReader();
    let records = 0;
    let newestAnnotation: string | null = null;
    const { value, set } = await repos.annotations.withinLoad(
      {
        source: 'goa',
        sourceVersion: payload.source_version,
        snapshotId: snapshot.id,
        sourceUrl: payload.gaf_url,
        jobId: job.id,
      },
      async (load) => {
        let batch: AnnotationRow[] = [];
        let lineNumber = 0;
        try {
          for await (const line of readLines(payload.gaf_url, sourcePolicyOf(config, artifacts))) {
            lineNumber += 1;
            const parsed = reader.push(line);
            if (parsed.kind === 'error') {
              problems.add(parsed.lineNumber, parsed.message);
              continue;
            }
            if (parsed.kind !== 'record') continue;
            records += 1;
            const r = parsed.record;
            const annotationDate = gafDate(r.date);
            if (annotationDate !== null && (newestAnnotation === null || annotationDate > newestAnnotation))
              newestAnnotation = annotationDate;
            const term = resolver.resolve(r.goId);
            if (term === null) continue;
            batch.push({
              proteinAccession: r.dbObjectId,
              goTermId: term.id,
              goId: term.go_id,
              aspect: term.aspect ?? r.aspect,
              qualifier: r.qualifier === '' ? null : r.qualifier,
              isNot: r.isNot,
              evidenceCode: r.evidenceCode,
              db: r.db,
              dbObjectSymbol: r.dbObjectSymbol,
              dbReference: r.dbReference,
              withFrom: r.withFrom,
              taxonId: r.taxa[0] ?? null,
              annotationDate,
              assignedBy: r.assignedBy,
              annotationExtension: r.annotationExtension,
              geneProductFormId: r.geneProductFormId,
            });
            if (batch.length >= BATCH) {
              await load.insert(batch);
              batch = [];
              if (load.count % 100_000 < BATCH) {
                // Inside the load transaction: the event is not awaited (see recordProgress) and a
                // cancel is read from the signal the heartbeat sets, not from the database.
                recordProgress(
                  emit('load_goa_annotations.progress', null, { lines: lineNumber, rows: load.count }),
                  logger,
                );
                signal.throwIfAborted();
              }
            }
          }
        } catch (error) {
          throw sourceFailure(error);
        }
        await load.insert(batch);
        const examined = records + problems.count;
        if (examined === 0) throw new JobError('empty_source', 'the GAF file holds no annotation line');
        const ratio = problems.count / examined;
        if (ratio > (payload.max_error_ratio ?? DEFAULT_MAX_ERROR_RATIO)) {
          throw new JobError(
            'too_many_malformed_lines',
            `${problems.count} of ${examined} lines are malformed (first: ${problems.samples
              .slice(0, 5)
              .map((p) => p.message)
              .join('; ')})`,
          );
        }
        resolver.checkAgainst(
          snapshot,
          records,
          payload.max_unresolved_ratio ?? DEFAULT_MAX_UNRESOLVED_RATIO,
          releaseHint(reader.header.properties, newestAnnotation),
        );
        const stats = {
          gaf_version: reader.header.version,
          lines: lineNumber,
          records,
          malformed_lines: problems.count,
          ...resolver.stats(records),
        };
        return { value: stats, stats };
      },
    );
    const result = {
      annotation_set_id: set.id,
      annotation_count: set.annotation_count,
      ...value,
      malformed_line_samples: problems.samples,
      elapsed_s: Number(((Date.now() - started) / 1000).toFixed(2)),
    };
    await emit('load_goa_annotations.done', null, {
      ...result,
      malformed_line_samples: problems.samples.slice(0, 10),
    });
    return result;
  },
});
