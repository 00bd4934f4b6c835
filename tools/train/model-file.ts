// What the trainers of the default blend share: readable calibration knots, the commit they ran at,
// and the checked model file they write.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { type Calibration, checkBlendModel } from '@svc/domain';

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

/** Writes a model with its provenance, after checking it as the service will when it loads it. */
export function writeModelFile(out: string, model: unknown, indent = 1): void {
  checkBlendModel(model);
  writeFileSync(out, `${JSON.stringify(model, null, indent)}\n`);
}
