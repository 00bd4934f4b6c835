import { INSERT_PROTEINS, InsertProteinsPayload } from '@svc/contracts';
import {
  FastaReader,
  type FastaRecord,
  md5Hex,
  parseUniProtFastaHeader,
  parseUniProtTsv,
  UniProtEntry,
  UniProtTsvReader,
} from '@svc/domain';
import { defineOperation, JobError } from '@svc/jobs';
import { Repositories } from '@svc/persistence';
import { readLines, sourcePolicyOf } from '@svc/platform';
import { sourceFailure } from './source-failure';
import { uniprotSearchPages } from './uniprot-search';

const SEARCH_FIELDS =
  'accession,id,reviewed,protein_name,gene_primary,organism_name,organism_id,length,sequence';

interface Entry extends UniProtEntry {
  sequence: string | null;
  length: number | null;
}

/** Upserts one page of entries: sequences by MD5, proteins by accession, in one transaction. */
async function storeEntries(
  repos: Repositories,
  entries: Entry[],
  includeIsoforms: boolean,
): Promise<{ proteins: number; sequences: number; skipped: number }> {
  const kept = entries.filter((e) => e.accession !== null && (includeIsoforms || e.isCanonical !== false));
  const stored = await repos.proteins.storeWithSequences(
    kept.map((e) => ({
      accession: e.accession!,
      canonicalAccession: e.canonicalAccession ?? e.accession!,
      isCanonical: e.isCanonical ?? true,
      isoformIndex: e.isoformIndex,
      sequence: e.sequence ? { sequence: e.sequence, hash: md5Hex(e.sequence) } : null,
      entryName: e.entryName,
      proteinName: e.proteinName,
      geneName: e.geneName,
      organism: e.organism,
      taxonomyId: e.taxonomyId,
      length: e.length ?? (e.sequence ? e.sequence.length : null),
      reviewed: e.reviewed,
    })),
  );
  return { ...stored, skipped: entries.length - kept.length };
}

/** Entries stored per transaction while an export is read. */
const EXPORT_CHUNK = 5000;

/** A FASTA record as an entry: its UniProt header read, the record's identifier as the fallback accession. */
function entryOfFasta(record: FastaRecord): Entry {
  const header = parseUniProtFastaHeader(record.header);
  return {
    ...header,
    accession: header.accession ?? record.identifier,
    sequence: record.sequence,
    length: record.sequence.length,
  };
}

/**
 * A UniProt FASTA or TSV export (format told by its first line) read a line at a time and handed over
 * in chunks of entries, so a Swiss-Prot-sized file (516,000 entries, 200 MB) is loaded in bounded
 * memory; problems of the whole file come back at the end.
 */
async function readExport(
  lines: AsyncIterable<string>,
  onEntries: (entries: Entry[]) => Promise<void>,
): Promise<{ entries: number; problems: { lineNumber: number; message: string }[] }> {
  let reader: FastaReader | UniProtTsvReader | null = null;
  let entries = 0;
  let pending: Entry[] = [];
  const take = (from: FastaReader | UniProtTsvReader, records?: (FastaRecord | Entry)[]): void => {
    const taken = records ?? from.takeRecords();
    for (const record of taken)
      pending.push(from instanceof FastaReader ? entryOfFasta(record as FastaRecord) : (record as Entry));
  };
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const chunk = pending;
    pending = [];
    entries += chunk.length;
    await onEntries(chunk);
  };
  for await (const line of lines) {
    if (reader === null) {
      if (line.trim() === '') continue;
      reader = line.replace(/^\uFEFF/, '').startsWith('>') ? new FastaReader() : new UniProtTsvReader();
    }
    reader.push(line);
    if (reader.linesRead % 1000 === 0) {
      take(reader);
      if (pending.length >= EXPORT_CHUNK) await flush();
    }
  }
  if (reader === null) return { entries: 0, problems: [{ lineNumber: 0, message: 'the file is empty' }] };
  const { records, problems } = reader.finish();
  take(reader, records);
  await flush();
  return { entries, problems };
}

/**
 * Loads reference proteins either from a UniProt search (REST protocol: `query`, `format=tsv`,
 * `size` up to 500, cursor paging by the Link header, retries on 429/5xx; base URL from
 * SVC_UNIPROT_BASE_URL) or from a FASTA/TSV export at `source_url`. Safe to run again.
 */
export const insertProteinsOperation = defineOperation<InsertProteinsPayload>({
  spec: INSERT_PROTEINS,
  async execute({ payload, emit, repos, config, artifacts, throwIfCancelled, setProgress }) {
    const sources = sourcePolicyOf(config, artifacts);
    const includeIsoforms = payload.include_isoforms ?? false;
    const totals = { proteins: 0, sequences: 0, skipped: 0, pages: 0, problems: 0 };
    const problemSamples: { lineNumber: number; message: string }[] = [];
    if (payload.source_url !== undefined) {
      let read: Awaited<ReturnType<typeof readExport>>;
      try {
        read = await readExport(readLines(payload.source_url, sources), async (entries) => {
          const stored = await storeEntries(repos, entries, includeIsoforms);
          totals.proteins += stored.proteins;
          totals.sequences += stored.sequences;
          totals.skipped += stored.skipped;
          totals.pages += 1;
          await emit('insert_proteins.page', null, {
            page: totals.pages,
            proteins: totals.proteins,
            total_results: null,
          });
          await throwIfCancelled();
        });
      } catch (error) {
        throw sourceFailure(error);
      }
      const { entries, problems } = read;
      if (entries === 0)
        throw new JobError(
          'empty_source',
          `no protein entries in ${payload.source_url}${problems[0] ? ` (${problems[0].message})` : ''}`,
        );
      totals.problems = problems.length;
      problemSamples.push(...problems.slice(0, 100));
    } else {
      const query = new URLSearchParams({
        query: payload.search_criteria ?? '',
        format: 'tsv',
        fields: SEARCH_FIELDS,
        size: String(payload.page_size ?? 500),
      });
      if (includeIsoforms) query.set('includeIsoform', 'true');
      let total: number | null = null;
      for await (const page of uniprotSearchPages(config.uniprotBaseUrl, query, sources)) {
        total ??= page.totalResults;
        const parsed = parseUniProtTsv(page.text);
        const stored = await storeEntries(repos, parsed.records, includeIsoforms);
        totals.proteins += stored.proteins;
        totals.sequences += stored.sequences;
        totals.skipped += stored.skipped;
        totals.problems += parsed.problems.length;
        totals.pages += 1;
        problemSamples.push(...parsed.problems.slice(0, 100 - problemSamples.length));
        if (Number.isFinite(total)) await setProgress(totals.proteins + totals.skipped, total);
        await emit('insert_proteins.page', null, {
          page: totals.pages,
          proteins: totals.proteins,
          total_results: total,
        });
        await throwIfCancelled();
      }
    }
    const result = { ...totals, problem_samples: problemSamples };
    await emit('insert_proteins.done', null, { ...totals });
    return result;
  },
});
