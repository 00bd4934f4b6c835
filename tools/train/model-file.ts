// What the trainers of the default blend share: readable calibration knots, the commit they ran at,
// and the checked model file they write.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { type Calibration, checkBlendModel } from '@svc/domain';
import type { DonorPolicy } from '@svc/go-transfer';

/** Knots to 6 decimals (the file stays readable), still increasing. */
export function roundKnots(calibration: Calibration): Calibration {
  const raw: number[] = [];
  const calibrated: number[] = [];
  calibration.raw.forEach((x, i) => {
    const rx = Math.round(x * 1e6) / 1e6;
    if (raw.length > 0 && rx <= raw[raw.length - 1]!) return;
    raw.push(rx);
    calibrated.push(Math.round(calibration.calibrated[i]! * 1e6) / 1e6);
  });
  return { raw, calibrated };
}

/** The commit the trainer ran at, for the model's provenance (null outside a git checkout). */
export function gitCommit(root: string): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/**
 * Writes a model with its provenance, after checking it as the service will when it loads it, in the
 * repository's format (Prettier, as `npm run format:check` reads it).
 */
export async function writeModelFile(out: string, model: unknown): Promise<void> {
  checkBlendModel(model);
  const options = (await resolveConfig(out)) ?? {};
  writeFileSync(out, await format(JSON.stringify(model), { ...options, filepath: out }));
}

/** A trainer's `--name value` option. */
export function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

/** `--donors experimental|all`: which t0 annotations donate, the policy the model is fitted for. */
export function donorsOption(): DonorPolicy {
  const donors = option('donors') ?? 'experimental';
  if (donors !== 'experimental' && donors !== 'all') throw new Error('--donors must be experimental or all');
  return donors;
}

/**
 * The name of a stage's model (1 the blend, 2 with the association, 3 with the calibration by
 * specificity): `homology-blend-v<stage>` for experimental donors, `homology-blend-all-v<stage>` for
 * every evidence code.
 */
export function blendVersion(stage: 1 | 2 | 3, donors: DonorPolicy): string {
  return donors === 'experimental' ? `homology-blend-v${stage}` : `homology-blend-all-v${stage}`;
}

/** What a model's donors are, in its provenance. */
export const DONOR_WORDS: Record<DonorPolicy, string> = {
  experimental:
    'experimental and high-throughput evidence (EXP IDA IPI IMP IGI IEP HTP HDA HMP HGI HEP), propagated over is_a and part_of',
  all: 'every evidence code but ND, electronic (IEA) included, propagated over is_a and part_of',
};
