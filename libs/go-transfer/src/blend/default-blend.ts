import { type BlendModel, checkBlendModel } from '@svc/domain';
import shipped from './homology-blend-v3.json';

/**
 * The default blend, fitted by `npm run train:blend` and its association by `npm run
 * train:association` (provenance inside the file: data, commands, windows and metrics). Checked once
 * when first used.
 */
let cached: BlendModel | null = null;

export function defaultBlendModel(): BlendModel {
  if (cached === null) {
    const { version, min_score, donor_evidence, aspects, association } = checkBlendModel(shipped);
    cached = { version, min_score, donor_evidence, aspects, ...(association ? { association } : {}) };
  }
  return cached;
}
