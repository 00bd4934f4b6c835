import { FETCH_UNIPROT_METADATA, FetchUniprotMetadataPayload, uniprotFetchBounds } from '@svc/contracts';
import { METADATA_COLUMNS, parseUniProtMetadataTsv, parseUniProtTsv } from '@svc/domain';
import { defineOperation, policyContextFor } from '@svc/jobs';
import { MetadataField, ProteinRepository } from '@svc/persistence';
import { sourcePolicyOf } from '@svc/platform';
import { firstRows, uniprotSearchPages } from './uniprot-search';

const CORE_FIELDS = 'id,reviewed,gene_primary,organism_name,organism_id,length';

/**
 * Fetches UniProt annotation text (function, catalytic activity, cofactors, sites...) for a search
 * and upserts it by canonical accession; with `update_protein_core` the protein rows' names,
 * organism and review status are refreshed as well. Safe to run again. Reads whole pages up to the
 * bounds of its submitter (`max_pages` within the role's row and page caps, docs/security.md) and
 * says in its result when it stopped at them (`stopped_at_cap`) before the search ended.
 */
export const fetchUniprotMetadataOperation = defineOperation<FetchUniprotMetadataPayload>({
  spec: FETCH_UNIPROT_METADATA,
  async execute({ job, payload, emit, repos, config, artifacts, throwIfCancelled, setProgress }) {
    const proteins = repos.proteins;
    // The same bounds the gateway checked, for the role recorded on the job.
    const bounds = uniprotFetchBounds(
      payload,
      policyContextFor({ role: job.submitted_role, via: job.submitted_via, limits: config.security }),
    );
    const fields = ['accession', ...METADATA_COLUMNS.map((c) => c.field)];
    if (payload.update_protein_core === true) fields.push(CORE_FIELDS);
    const query = new URLSearchParams({
      query: payload.search_criteria,
      format: 'tsv',
      fields: fields.join(','),
      size: String(bounds.pageSize),
    });
    const totals = { pages: 0, entries: 0, proteins_updated: 0, problems: 0 };
    let total: number | null = null;
    let rowsRead = 0;
    let stoppedAtCap = false;
    const pending: Parameters<ProteinRepository['upsertMetadata']>[1] = [];
    const flush = async (): Promise<void> => {
      if (pending.length === 0) return;
      await proteins.saveMetadata(pending.splice(0));
    };
    const sources = sourcePolicyOf(config, artifacts);
    for await (const page of uniprotSearchPages(config.uniprotBaseUrl, query, sources)) {
      total ??= page.totalResults;
      // The last page within the row cap is cut to the rows left.
      const kept = firstRows(page.text, bounds.maxRows - rowsRead);
      rowsRead += kept.rows;
      const text = kept.text;
      const lines = text.split('\n');
      const parsed = parseUniProtMetadataTsv(lines);
      totals.problems += parsed.problems.length;
      totals.entries += parsed.rows.length;
      pending.push(
        ...parsed.rows.map((row) => ({
          canonicalAccession: row.canonicalAccession,
          ...(row.values as Partial<Record<MetadataField, string | null>>),
        })),
      );
      if (payload.update_protein_core === true) {
        const core = parseUniProtTsv(text).records.filter((r) => r.accession !== null);
        const existing = await proteins.existingAccessions(core.map((r) => r.accession!));
        // Only proteins already loaded are refreshed; this operation adds metadata, not proteins.
        const rows = core.filter((r) => existing.has(r.accession!));
        await proteins.refreshProteins(
          rows.map((r) => ({
            accession: r.accession!,
            canonicalAccession: r.canonicalAccession ?? r.accession!,
            isCanonical: r.isCanonical ?? true,
            isoformIndex: r.isoformIndex,
            sequenceId: null,
            entryName: r.entryName,
            // Null here: CORE_FIELDS does not ask for protein_name, and the upsert keeps the stored one.
            proteinName: r.proteinName,
            geneName: r.geneName,
            organism: r.organism,
            taxonomyId: r.taxonomyId,
            length: r.length,
            reviewed: r.reviewed,
          })),
        );
        totals.proteins_updated += rows.length;
      }
      totals.pages += 1;
      if (payload.commit_every_page !== false) await flush();
      if (total !== null && Number.isFinite(total))
        await setProgress(totals.entries, Math.min(total, bounds.maxRows));
      await emit('fetch_uniprot_metadata.page', null, {
        page: totals.pages,
        entries: totals.entries,
        total_results: total,
      });
      await throwIfCancelled();
      const atCap = rowsRead >= bounds.maxRows || totals.pages >= bounds.maxPages;
      if (atCap && (kept.cut || page.hasNext)) {
        stoppedAtCap = true;
        break;
      }
    }
    await flush();
    const result = {
      ...totals,
      max_rows: bounds.maxRows,
      max_pages: bounds.maxPages,
      stopped_at_cap: stoppedAtCap,
    };
    if (stoppedAtCap)
      await emit(
        'fetch_uniprot_metadata.capped',
        `stopped at the cap of ${bounds.maxRows} rows or ${bounds.maxPages} pages; the search has ${total !== null && Number.isFinite(total) ? total : 'more'} results`,
        { max_rows: bounds.maxRows, max_pages: bounds.maxPages, total_results: total },
        'warning',
      );
    await emit('fetch_uniprot_metadata.done', null, result);
    return result;
  },
});
