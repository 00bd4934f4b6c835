/** GO experimental evidence codes: the only ones that count for the temporal holdout. */
export const EXPERIMENTAL_EVIDENCE_CODES: readonly string[] = ['EXP', 'IDA', 'IPI', 'IMP', 'IGI', 'IEP'];

/** GO's high-throughput experimental evidence codes. */
export const HIGH_THROUGHPUT_EVIDENCE_CODES: readonly string[] = ['HTP', 'HDA', 'HMP', 'HGI', 'HEP'];

/** What `donor_evidence: experimental` transfers from: experimental and high-throughput codes. */
export const DONOR_EVIDENCE_CODES: readonly string[] = [
  ...EXPERIMENTAL_EVIDENCE_CODES,
  ...HIGH_THROUGHPUT_EVIDENCE_CODES,
];

/** High-throughput experimental codes plus IC and TAS, counted only when a caller asks for them. */
export const EXTENDED_EVIDENCE_CODES: readonly string[] = [...HIGH_THROUGHPUT_EVIDENCE_CODES, 'IC', 'TAS'];

/** The default ECO class of each code (ECO's gaf-eco-mapping), so ECO-coded sources count too. */
export const ECO_BY_EVIDENCE_CODE: Readonly<Record<string, string>> = Object.freeze({
  EXP: 'ECO:0000269',
  IDA: 'ECO:0000314',
  IPI: 'ECO:0000353',
  IMP: 'ECO:0000315',
  IGI: 'ECO:0000316',
  IEP: 'ECO:0000270',
  HTP: 'ECO:0006056',
  HDA: 'ECO:0007005',
  HMP: 'ECO:0007001',
  HGI: 'ECO:0007003',
  HEP: 'ECO:0007007',
  IC: 'ECO:0000305',
  TAS: 'ECO:0000304',
});

/** The accepted evidence values (codes and their ECO ids, upper case). */
export function acceptedEvidence(includeExtended: boolean): ReadonlySet<string> {
  const codes = includeExtended
    ? [...EXPERIMENTAL_EVIDENCE_CODES, ...EXTENDED_EVIDENCE_CODES]
    : EXPERIMENTAL_EVIDENCE_CODES;
  return new Set(codes.flatMap((code) => [code, ECO_BY_EVIDENCE_CODE[code] ?? code]));
}
