import { Zip, ZipDeflate } from 'fflate';
import { StreamableFile } from '@nestjs/common';
import { PredictionExportQuery } from '@svc/contracts';
import {
  basisOf,
  predictionGafHeader,
  predictionGafLine,
  provenanceComment,
  provenanceHeader,
  provenanceWarningCodes,
  provenanceWarnings,
  type Coverage,
  type QuerySummary,
  type ReferenceSummary,
} from '@svc/domain';
import {
  BestTermRow,
  PredictionExportReader,
  PredictionProvenanceRepository,
  PREDICTIONS_TSV_COLUMNS,
} from '@svc/persistence';
import { downloadStream, tsvLines } from './tsv';

/** The text of a prediction set's downloads (TSV, CAFA, GAF, JSON), streamed from its rows. */
export class PredictionFiles {
  constructor(
    private readonly downloads: PredictionExportReader,
    private readonly provenance: PredictionProvenanceRepository,
  ) {}

  /** What the set stands on: its reference and its coverage. */
  async backing(id: string): Promise<{ reference: ReferenceSummary | null; coverage: Coverage | null }> {
    const [reference, coverage] = await Promise.all([
      this.provenance.reference(id),
      this.provenance.coverage(id),
    ]);
    return { reference, coverage };
  }

  /** The column header first, then one comment line naming what the rows stand on, then the rows. */
  async *tsvText(id: string, filters: ExportFilters): AsyncGenerator<string> {
    const { reference, coverage } = await this.backing(id);
    yield `${PREDICTIONS_TSV_COLUMNS.join('\t')}\n${provenanceComment(provenanceHeader(reference, coverage))}\n`;
    yield* tsvLines(null, this.downloads.tsvRows(id, rowFilters(filters)));
  }

  async *cafaText(id: string, filters: ExportFilters, restrict: Set<string> | null): AsyncGenerator<string> {
    const proteins = this.bestTerms(id, filters, restrict);
    async function* chunks() {
      // A term the upload said is known (GO=) is the submitter's, not a prediction.
      for await (const { protein, terms } of proteins)
        yield terms.filter((t) => !t.submitted).map((t) => [protein, t.goId, t.score.toFixed(6)]);
    }
    yield* tsvLines(null, chunks());
  }

  async *gafText(id: string, filters: ExportFilters, date: string): AsyncGenerator<string> {
    const { minScore } = filters;
    const { reference, coverage } = await this.backing(id);
    yield (
      predictionGafHeader({
        predictionSetId: id,
        generated: new Date().toISOString().slice(0, 10),
        minScore,
        provenance: provenanceHeader(reference, coverage),
      }).join('\n') + '\n'
    );
    for await (const { protein, terms: all } of this.bestTerms(id, filters, null)) {
      // No evidence code fits a term the upload asserts and the service never checked (GO=): left out.
      const terms = all.filter((t) => !t.submitted);
      if (terms.length === 0) continue;
      yield (
        terms
          .map((t) =>
            predictionGafLine({
              protein,
              symbol: t.geneName,
              goId: t.goId,
              aspect: t.aspect as 'F' | 'P' | 'C',
              taxonId: t.queryTaxonomyId,
              donor: t.donor,
              date,
              known: t.known ? { evidenceCode: t.evidenceCode } : null,
            }),
          )
          .join('\n') + '\n'
      );
    }
  }

  /**
   * `{prediction_set_id, reference, coverage, warnings, min_score, proteins: [...]}`: what the set
   * stands on, then each protein with its homologs, best identity and basis, and its terms.
   */
  async *jsonText(id: string, filters: ExportFilters): AsyncGenerator<string> {
    const { minScore } = filters;
    const { reference, coverage } = await this.backing(id);
    const summaries = await this.provenance.querySummaries(id);
    const head = {
      prediction_set_id: id,
      reference,
      coverage,
      warnings: provenanceWarnings(reference, coverage),
      warning_codes: provenanceWarningCodes(reference, coverage),
      min_score: minScore,
    };
    yield `${JSON.stringify(head).slice(0, -1)},"proteins":[`;
    let first = true;
    for await (const { protein, terms } of this.bestTerms(id, filters, null)) {
      if (terms.length === 0) continue;
      const summary: QuerySummary | undefined = summaries.get(protein);
      const entry = {
        protein,
        homologs: summary?.homologs ?? null,
        best_identity: summary?.best_identity ?? null,
        basis: summary === undefined ? null : basisOf(summary),
        terms: terms.map((t) => ({
          go_id: t.goId,
          go_name: t.goName,
          aspect: t.aspect,
          score: Number(t.score.toFixed(6)),
          donor: t.donor,
          identity: t.identity,
          evidence_code: t.evidenceCode,
          source: t.known ? 'known' : t.submitted ? 'submitted' : t.donor === null ? 'prior' : 'homology',
        })),
      };
      yield `${first ? '' : ','}\n${JSON.stringify(entry)}`;
      first = false;
    }
    yield '\n]}\n';
  }

  /**
   * The set's proteins in accession order, each with its best row per term (the highest score),
   * best first, those under `filters.minScore` left out; `restrict` keeps only the proteins it names.
   */
  async *bestTerms(
    id: string,
    filters: ExportFilters,
    restrict: Set<string> | null,
  ): AsyncGenerator<{ protein: string; terms: BestTermRow[] }> {
    const { minScore, ...rows } = filters;
    for await (const { protein, terms } of this.downloads.bestTerms(id, rows)) {
      if (restrict !== null && !restrict.has(protein)) continue;
      yield { protein, terms: minScore > 0 ? terms.filter((t) => t.score >= minScore) : terms };
    }
  }
}

/** The download filters of a query. */
export function exportFilters(query: PredictionExportQuery): ExportFilters {
  return {
    minScore: query.min_score ?? 0,
    ...(query.accession !== undefined ? { accession: query.accession } : {}),
    ...(query.aspect !== undefined ? { aspect: query.aspect } : {}),
    ...(query.max_distance !== undefined ? { maxDistance: query.max_distance } : {}),
  };
}

export type RowFilters = { accession?: string; aspect?: 'F' | 'P' | 'C'; maxDistance?: number };
/** The download filters; `minScore` cuts terms (CAFA, GAF, JSON) or rows (TSV) scoring under it. */
export type ExportFilters = RowFilters & { minScore: number };

/**
 * The TSV's row filters: a row scores max(0, 1 - distance) (docs/prediction.md, "Score"), so a score
 * floor is a distance ceiling.
 */
function rowFilters({ minScore, ...rows }: ExportFilters): RowFilters {
  if (minScore <= 0) return rows;
  const ceiling = 1 - minScore;
  return {
    ...rows,
    maxDistance: rows.maxDistance === undefined ? ceiling : Math.min(rows.maxDistance, ceiling),
  };
}

export const TSV = 'text/tab-separated-values; charset=utf-8';

export function textFile(text: AsyncIterable<string>, type: string, filename: string): StreamableFile {
  return new StreamableFile(downloadStream(text), {
    type,
    disposition: `attachment; filename="${filename}"`,
  });
}

/**
 * A ZIP written as it is read: each entry's text is deflated chunk by chunk (fflate's streaming
 * zip), so the archive of a large set never sits in memory.
 */
export async function* zipStream(
  entries: { name: string; text: () => AsyncIterable<string> }[],
): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  const state: { failure: Error | null } = { failure: null };
  const zip = new Zip((error, data) => {
    if (error !== null) state.failure = error;
    else ready.push(data);
  });
  const encoder = new TextEncoder();
  for (const entry of entries) {
    const file = new ZipDeflate(entry.name, { level: 6 });
    zip.add(file);
    for await (const text of entry.text()) {
      file.push(encoder.encode(text), false);
      if (state.failure !== null) throw state.failure;
      while (ready.length > 0) yield ready.shift()!;
    }
    file.push(new Uint8Array(0), true);
    while (ready.length > 0) yield ready.shift()!;
  }
  zip.end();
  if (state.failure !== null) throw state.failure;
  while (ready.length > 0) yield ready.shift()!;
}

/** A timestamp as GAF's YYYYMMDD (today when it cannot be read). */
export function gafDate(value: unknown): string {
  const date = value instanceof Date ? value : new Date(String(value));
  return (Number.isNaN(date.getTime()) ? new Date() : date).toISOString().slice(0, 10).replace(/-/g, '');
}
