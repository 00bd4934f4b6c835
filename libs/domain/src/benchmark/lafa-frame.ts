import { EVALUATION_BAND_REGISTRY, sourceFileName } from './bands';

/** The threshold step of the LAFA recipe (the evaluator's default). */
export const LAFA_TH_STEP = 0.01;

export type LafaFrameCheck = { ok: true } | { ok: false; problems: string[] };

/**
 * Whether an evaluation may call itself LAFA-comparable: a band (it pins the files), the band's IA
 * file, the release's TOI file, the default threshold step and no `max_terms` cut. The evaluator
 * would run on anything else, but its headline would not be the LAFA one. Every problem is listed.
 */
export function checkLafaFrame(input: {
  band: string | null;
  iaSource: string | null;
  toiSource: string | null;
  thStep: number;
  maxTerms: number | null;
  /** Whether the evaluation set left out NK proteins carried over at gene level. */
  geneCarryOverExcluded?: boolean;
}): LafaFrameCheck {
  const problems: string[] = [];
  if (input.geneCarryOverExcluded === true)
    problems.push(
      'the evaluation set leaves out NK proteins carried over at gene level (exclude_gene_carry_over); LAFA counts every protein without experimental terms at t0 as NK',
    );
  const band = EVALUATION_BAND_REGISTRY.find((b) => b.name === input.band);
  if (input.band === null)
    problems.push(
      `a band (${EVALUATION_BAND_REGISTRY.map((b) => b.name).join(', ')}) is required: it pins the IA and TOI files`,
    );
  else if (band === undefined) problems.push(`unknown band '${input.band}'`);
  if (band !== undefined) {
    const files = [
      { what: 'IA', source: input.iaSource, token: band.iaToken },
      { what: 'TOI', source: input.toiSource, token: band.toiToken },
    ];
    for (const { what, source, token } of files) {
      if (source === null) problems.push(`the ${what} file of band ${band.name} (${token}…) is required`);
      else if (!sourceFileName(source).includes(token))
        problems.push(
          `the ${what} file must be band ${band.name}'s (${token}…), not ${sourceFileName(source)}`,
        );
    }
  }
  if (input.thStep !== LAFA_TH_STEP)
    problems.push(`th_step must be the default ${LAFA_TH_STEP}, not ${input.thStep}`);
  if (input.maxTerms !== null) problems.push(`max_terms must be unlimited (null), not ${input.maxTerms}`);
  return problems.length === 0 ? { ok: true } : { ok: false, problems };
}
