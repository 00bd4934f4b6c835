/**
 * Evaluation bands: each pins one canonical ontology release (by `obo_version`), one IA file and
 * the release's terms-of-interest file (each by a token its file name must contain). No release or
 * token is shared by two bands.
 */
export interface EvaluationBand {
  readonly name: string;
  readonly oboVersion: string;
  readonly iaToken: string;
  /** The release TOI file a LAFA-comparable run uses (lafa-frame.ts). */
  readonly toiToken: string;
}

export const EVALUATION_BAND_REGISTRY: readonly EvaluationBand[] = [
  { name: 'v226', oboVersion: 'releases/2022-07-01', iaToken: 'IA-v226', toiToken: 'TOI-v226' },
  { name: 'v227', oboVersion: 'godb-3.20.0-built-2024-09-23', iaToken: 'IA-v227', toiToken: 'TOI-v227' },
];

/** The file name of a path or URI (its last segment). */
export function sourceFileName(source: string): string {
  return source.split(/[\\/]/).pop() ?? source;
}

export type BandCheck = { ok: true; band: EvaluationBand } | { ok: false; reason: string };

/** Verifies the pivot snapshot's release and the IA source of an evaluation against a band. */
export function verifyBand(input: { band: string; oboVersion: string; iaSource: string | null }): BandCheck {
  const band = EVALUATION_BAND_REGISTRY.find((b) => b.name === input.band);
  if (band === undefined) return { ok: false, reason: `unknown band '${input.band}'` };
  if (input.oboVersion !== band.oboVersion)
    return {
      ok: false,
      reason: `band ${band.name} pins ontology ${band.oboVersion}, but the evaluation set uses ${input.oboVersion}`,
    };
  if (input.iaSource === null)
    return { ok: false, reason: `band ${band.name} needs its IA file (${band.iaToken})` };
  const name = sourceFileName(input.iaSource);
  if (!name.includes(band.iaToken))
    return { ok: false, reason: `band ${band.name} pins the IA file ${band.iaToken}, not ${name}` };
  return { ok: true, band };
}
