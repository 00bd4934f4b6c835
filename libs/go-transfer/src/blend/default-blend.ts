import { type BlendModel, checkBlendModel } from '@svc/domain';
import shipped from './homology-blend-v1.json';

/**
 * The default blend, fitted by `npm run train:blend` (provenance inside the file: data, command,
 * windows and metrics). Checked once when first used.
 */
let cached: BlendModel | null = null;

export function defaultBlendModel(): BlendModel {
  if (cached === null) {
    const { version, min_score, donor_evidence, aspects } = checkBlendModel(shipped);
    cached = { version, min_score, donor_evidence, aspects };
  }
  return cached;
}
