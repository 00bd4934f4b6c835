import { parseNcbiTaxonId } from '../taxonomy/ncbi-taxon-id';
import { isUniProtAccession, splitIsoform } from './uniprot-accession';
import { EMPTY_UNIPROT_ENTRY, type UniProtEntry } from './uniprot-entry';

const UNIPROT_HEADER = /^(sp|tr)\|([^|\s]+)\|(\S*)(?:\s+([\s\S]*))?$/;

/**
 * The 'KEY=value' tags UniProt appends to FASTA descriptions. A tag must follow white space, so
 * '=' inside a protein name does not start one; its value runs to the next tag.
 */
const TAG = /(?:^|\s)(OS|OX|GN|PE|SV|GO)=/g;

/** GO= is ours, not UniProt's: GO terms the submitter already knows of the protein (parseKnownGoTag). */
type TagName = 'OS' | 'OX' | 'GN' | 'PE' | 'SV' | 'GO';

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
 * Most GO ids one GO= tag may carry: 300 ids and their commas take 3,300 of a header's 4,096
 * characters (FASTA_MAX_HEADER_LENGTH), leaving room for the rest of a UniProt header.
 */
export const KNOWN_GO_IDS_MAX = 300;

const GO_ID = /^GO:\d{7}$/;

/**
 * GO= of a FASTA description: the GO terms the submitter already knows of a protein, comma-separated
 * ('GO=GO:0003677,GO:0005634'), which inform its prediction as a reference protein's own terms do
 * (docs/prediction.md, "Known terms of a new protein"). Null without a GO= tag; the ids once each, in
 * their order, when every one is a GO id and there are at most KNOWN_GO_IDS_MAX; otherwise a problem
 * that says what is wrong (the upload refuses it, naming the line), never a partial list.
 */
export function parseKnownGoTag(description: string): { ids: string[] } | { problem: string } | null {
  const value = readTags(description).values.GO;
  if (value === undefined) return null;
  const tokens = value.split(',').map((token) => token.trim());
  if (value === '' || tokens.some((token) => token === '')) {
    return { problem: 'GO= must list GO ids separated by commas, with no empty item' };
  }
  const bad = tokens.filter((token) => !GO_ID.test(token));
  if (bad.length > 0) {
    const shown = bad
      .slice(0, 3)
      .map((token) => JSON.stringify(token.slice(0, 20)))
      .join(', ');
    return { problem: `GO= holds ${bad.length} item(s) that are not GO ids (GO:NNNNNNN): ${shown}` };
  }
  const ids = [...new Set(tokens)];
  if (ids.length > KNOWN_GO_IDS_MAX) {
    return { problem: `GO= lists ${ids.length} GO ids; at most ${KNOWN_GO_IDS_MAX} are allowed per protein` };
  }
  return { ids };
}

/**
 * Longest value a header gives each field of a protein row; a longer one is dropped (null) rather
 * than cut, as a query-set upload drops an over-long GN= (docs/decisions.md). The header as a whole
 * is already bounded (FASTA_MAX_HEADER_LENGTH); these keep one field from taking all of it. UniProt's
 * entry names have at most 16 characters (a 10-character accession or a 5-character mnemonic, '_', a
 * 5-character species code); its protein and organism names stay under a few hundred.
 */
export const UNIPROT_HEADER_FIELD_MAX_LENGTH = {
  entryName: 32,
  proteinName: 500,
  organism: 500,
  geneName: 200,
} as const;

// Control characters (C0, DEL, C1) and invisible formatting ones (soft hyphen, zero-width characters,
// bidirectional overrides, line and paragraph separators, BOM) can hide or disguise text on a page
// that lists proteins; UniProt writes none of them.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const HIDDEN_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** An entry name is one token of letters, digits, '_', '.' and '-' ('P53_HUMAN'). */
const ENTRY_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * A header value as a protein row may hold it: hidden characters stripped, tabs and runs of spaces
 * made one space; null when nothing is left or it is longer than `maxLength`. The TSV reader checks
 * its free-text "Protein names" cell the same way.
 */
export function uniProtFieldText(value: string | undefined, maxLength: number): string | null {
  if (value === undefined) return null;
  // White space first, so that a tab or a line break between two words still parts them.
  const text = value.replace(/\s+/g, ' ').replace(HIDDEN_CHARACTER, '').replace(/ {2,}/g, ' ').trim();
  return text === '' || text.length > maxLength ? null : text;
}

/** OS=, OX= and GN= of a description, each checked as uniProtFieldText says; OX= must be an NCBI taxonomy id. */
function taggedFields(tags: Tags): Pick<UniProtEntry, 'organism' | 'taxonomyId' | 'geneName'> {
  const taxon = parseNcbiTaxonId(tags.values.OX ?? '');
  return {
    organism: uniProtFieldText(tags.values.OS, UNIPROT_HEADER_FIELD_MAX_LENGTH.organism),
    taxonomyId: taxon === null ? null : String(taxon),
    geneName: uniProtFieldText(tags.values.GN, UNIPROT_HEADER_FIELD_MAX_LENGTH.geneName),
  };
}

function entryNameOf(text: string | undefined): string | null {
  const name = uniProtFieldText(text, UNIPROT_HEADER_FIELD_MAX_LENGTH.entryName);
  return name !== null && ENTRY_NAME.test(name) ? name : null;
}

/**
 * Reads a UniProt FASTA header (with or without the leading '>'):
 * 'sp|P12345-2|ABC_HUMAN Isoform 2 of Protein X OS=Homo sapiens OX=9606 GN=ABC PE=1 SV=2'.
 * A plain header ('P12345', 'P12345 some text') gives the accession when its first token is one;
 * species and gene tags are read from any header that carries them. The header is not trusted: each
 * value is checked and bounded (uniProtFieldText, UNIPROT_HEADER_FIELD_MAX_LENGTH), and one that fails is
 * null, so a reload never blanks what the protein row holds (the upsert keeps stored values over null).
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
      entryName: entryNameOf(uniprot[3]),
      reviewed: uniprot[1] === 'sp',
      proteinName: uniProtFieldText(tags.lead, UNIPROT_HEADER_FIELD_MAX_LENGTH.proteinName),
      ...taggedFields(tags),
    };
  }

  const space = text.search(/\s/);
  const token = space < 0 ? text : text.slice(0, space);
  const tagged = taggedFields(readTags(space < 0 ? '' : text.slice(space)));
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
