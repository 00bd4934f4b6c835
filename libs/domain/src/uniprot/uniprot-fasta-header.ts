import { isUniProtAccession, splitIsoform } from './uniprot-accession';
import { EMPTY_UNIPROT_ENTRY, type UniProtEntry } from './uniprot-entry';

const UNIPROT_HEADER = /^(sp|tr)\|([^|\s]+)\|(\S*)(?:\s+([\s\S]*))?$/;

/**
 * The 'KEY=value' tags UniProt appends to FASTA descriptions. A tag must follow white space, so
 * '=' inside a protein name does not start one; its value runs to the next tag.
 */
const TAG = /(?:^|\s)(OS|OX|GN|PE|SV)=/g;

type TagName = 'OS' | 'OX' | 'GN' | 'PE' | 'SV';

interface Tags {
  /** Text before the first tag. */
  lead: string;
  values: Partial<Record<TagName, string>>;
}

function readTags(description: string): Tags {
  const matches = [...description.matchAll(TAG)];
  const values: Partial<Record<TagName, string>> = {};
  matches.forEach((match, index) => {
    const name = match[1] as TagName;
    const start = (match.index ?? 0) + match[0].length;
    const end = matches[index + 1]?.index ?? description.length;
    // The first occurrence wins; a repeated tag is noise from hand-edited headers.
    values[name] ??= description.slice(start, end).trim();
  });
  const lead = matches.length === 0 ? description : description.slice(0, matches[0]?.index ?? 0);
  return { lead: lead.trim(), values };
}

function nonEmpty(text: string | undefined): string | null {
  return text === undefined || text === '' ? null : text;
}

/** OS= (organism) and OX= (NCBI taxonomy id, digits only) from a FASTA description. */
export function parseSpeciesTags(description: string): {
  organism: string | null;
  taxonomyId: string | null;
} {
  const { values } = readTags(description);
  const taxonomyId = values.OX !== undefined && /^\d+$/.test(values.OX) ? values.OX : null;
  return { organism: nonEmpty(values.OS), taxonomyId };
}

/** GN= (the gene name) from a FASTA description, as written; null when there is none or it is empty. */
export function parseGeneNameTag(description: string): string | null {
  return nonEmpty(readTags(description).values.GN);
}

/**
 * Reads a UniProt FASTA header (with or without the leading '>'):
 * 'sp|P12345-2|ABC_HUMAN Isoform 2 of Protein X OS=Homo sapiens OX=9606 GN=ABC PE=1 SV=2'.
 * A plain header ('P12345', 'P12345 some text') gives the accession when its first token is one;
 * species and gene tags are read from any header that carries them.
 */
export function parseUniProtFastaHeader(header: string): UniProtEntry {
  const text = header.replace(/^>/, '').trim();
  const uniprot = UNIPROT_HEADER.exec(text);
  if (uniprot !== null) {
    const accession = uniprot[2] ?? '';
    const { canonicalAccession, isoformIndex } = splitIsoform(accession);
    const tags = readTags(uniprot[4] ?? '');
    return {
      accession,
      canonicalAccession,
      isCanonical: isoformIndex === null,
      isoformIndex,
      entryName: nonEmpty(uniprot[3]),
      reviewed: uniprot[1] === 'sp',
      proteinName: nonEmpty(tags.lead),
      ...parseSpeciesTags(uniprot[4] ?? ''),
      geneName: nonEmpty(tags.values.GN),
    };
  }

  const space = text.search(/\s/);
  const token = space < 0 ? text : text.slice(0, space);
  const description = space < 0 ? '' : text.slice(space);
  const tagged = { ...parseSpeciesTags(description), geneName: nonEmpty(readTags(description).values.GN) };
  if (!isUniProtAccession(token)) return { ...EMPTY_UNIPROT_ENTRY, ...tagged };
  const { canonicalAccession, isoformIndex } = splitIsoform(token);
  return {
    ...EMPTY_UNIPROT_ENTRY,
    accession: token,
    canonicalAccession,
    isCanonical: isoformIndex === null,
    isoformIndex,
    ...tagged,
  };
}
