/** The largest id a taxon column (PostgreSQL `integer`) holds; NCBI's ids are far below it. */
export const MAX_NCBI_TAXON_ID = 2_147_483_647;

/**
 * An NCBI taxonomy id written as digits ('9606'), or null for anything else: an empty value, a name,
 * a sign, a fraction, 0, or an id past MAX_NCBI_TAXON_ID. Surrounding white space is ignored.
 */
export function parseNcbiTaxonId(text: string): number | null {
  const digits = text.trim();
  if (!/^\d{1,10}$/.test(digits)) return null;
  const id = Number(digits);
  return id >= 1 && id <= MAX_NCBI_TAXON_ID ? id : null;
}
