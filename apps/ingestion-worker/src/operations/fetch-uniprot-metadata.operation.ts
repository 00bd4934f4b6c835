import { FETCH_UNIPROT_METADATA, FetchUniprotMetadataPayload } from '@svc/contracts';
import { METADATA_COLUMNS, parseUniProtMetadataTsv, parseUniProtTsv } from '@svc/domain';
import { defineOperation } from '@svc/jobs';
import { MetadataField, ProteinRepository } from '@svc/persistence';
import { sourcePolicyOf } from '@svc/platform';
import { uniprotSearchPages } from './uniprot-search';

const CORE_FIELDS = 'id,reviewed,gene_primary,organism_name,organism_id,length';

/**
 * Fetches UniProt annotation text (function, catalytic activity, cofactors, sites...) for a search
 * and upserts it by canonical accession; with `update_protein_core` the protein rows' names,
 * organism and review status are refreshed as well. Safe to run again.
 */
export const fetchUniprotMetadataOperation = defineOperation<FetchUniprotMetadataPayload>({
  spec: FETCH_UNIPROT_METADATA,
  async execute({ payload, emit, repos, config, artifacts, throwIfCancelled, setProgress }) {
    const proteins = repos.proteins;
    const fields = ['accession', ...METADATA_COLUMNS.map((c) => c.field)];
    if (payload.update_protein_core === true) fields.push(CORE_FIELDS);
    const query = new URLSearchParams({
      query: payload.search_criteria,
      format: 'tsv',
      fields: fields.join(','),
      size: String(payload.page_size ?? 500),
    });
    const totals = { pages: 0, entries: 0, proteins_updated: 0, problems: 0 };
    let total: number | null = null;
    const pending: Parameters<ProteinRepository['upsertMetadata']>[1] = [];
    const flush = async (): Promise<void> => {
      if (pending.length === 0) return;
      await proteins.saveMetadata(pending.splice(0));
    };
    const sources = sourcePolicyOf(config, artifacts);
    for await (const page of uniprotSearchPages(config.uniprotBaseUrl, query, sources)) {
      total ??= page.totalResults;
      const text = page.text;
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
      if (Number.isFinite(total)) await setProgress(totals.entries, total);
      await emit('fetch_uniprot_metadata.page', null, {
        page: totals.pages,
        entries: totals.entries,
        total_results: total,
      });
      await throwIfCancelled();
    }
    await flush();
    await emit('fetch_uniprot_metadata.done', null, totals);
    return totals;
  },
});
