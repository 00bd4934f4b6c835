/** What a UniProt FASTA header or a UniProt TSV row says about one entry; null when not stated. */
export interface UniProtEntry {
  /** As written, isoform suffix included ('P12345-2'). */
  accession: string | null;
  /** Without the isoform suffix ('P12345'). */
  canonicalAccession: string | null;
  /** False for an isoform accession ('-N'); null without an accession. */
  isCanonical: boolean | null;
  isoformIndex: number | null;
  /** 'ABC_HUMAN'. */
  entryName: string | null;
  /** Swiss-Prot true, TrEMBL false, null when the source does not say. */
  reviewed: boolean | null;
  proteinName: string | null;
  organism: string | null;
  /** NCBI taxonomy id, as text ('9606'). */
  taxonomyId: string | null;
  geneName: string | null;
}

export const EMPTY_UNIPROT_ENTRY: Readonly<UniProtEntry> = {
  accession: null,
  canonicalAccession: null,
  isCanonical: null,
  isoformIndex: null,
  entryName: null,
  reviewed: null,
  proteinName: null,
  organism: null,
  taxonomyId: null,
  geneName: null,
};
