const UNIPROT_ID = /^(?:sp|tr)\|([^|\s]+)\|/;

/**
 * Splits a header (without '>') into its identifier and description. The identifier is the first
 * white-space-separated token, except that UniProt 'sp|ACC|NAME' and 'tr|ACC|NAME' give the accession,
 * so sequences downloaded from UniProt key on the same identifier as the annotation files.
 */
export function splitFastaHeader(header: string): { identifier: string; description: string } {
  const text = header.trim();
  const space = text.search(/\s/);
  const token = space < 0 ? text : text.slice(0, space);
  const description = space < 0 ? '' : text.slice(space).trim();
  const uniprot = UNIPROT_ID.exec(token);
  return { identifier: uniprot?.[1] ?? token, description };
}
