/** The accession pattern published by UniProt, plus an optional isoform suffix (-1, -2, ...). */
const ACCESSION_PATTERN =
  /^(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})(?:-[1-9][0-9]*)?$/;

const ISOFORM_PATTERN = /^(.+)-([1-9][0-9]*)$/;

/** 'P12345', 'A0A024R161', 'P12345-2'; not lower case, not surrounded by white space. */
export function isUniProtAccession(text: string): boolean {
  return ACCESSION_PATTERN.test(text);
}

/** 'P12345-2' -> {canonicalAccession: 'P12345', isoformIndex: 2}; 'P12345' -> {'P12345', null}. */
export function splitIsoform(accession: string): { canonicalAccession: string; isoformIndex: number | null } {
  const match = ISOFORM_PATTERN.exec(accession);
  if (match === null) return { canonicalAccession: accession, isoformIndex: null };
  return { canonicalAccession: match[1] ?? accession, isoformIndex: Number(match[2]) };
}
