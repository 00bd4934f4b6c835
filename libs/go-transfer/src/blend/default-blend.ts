import { type BlendModel, checkBlendModel } from '@svc/domain';
import all from './homology-blend-all-v3.json';
import experimental from './homology-blend-v3.json';

/** Which reference annotations donate to a homology prediction (`donor_evidence`). */
export type DonorPolicy = BlendModel['donor_evidence'];

/**
 * The shipped blends, one per donor policy they were fitted for: `npm run train:blend`, then
 * `train:association`, then `train:calibration`, each with `--donors <policy>` (provenance inside the
 * files: data, commands, windows and metrics). Each is checked once, when first used.
 */
const SHIPPED: Record<DonorPolicy, unknown> = { experimental, all };
const cached = new Map<DonorPolicy, BlendModel>();

function load(policy: DonorPolicy): BlendModel {
  let model = cached.get(policy);
  if (model === undefined) {
    const { version, min_score, donor_evidence, aspects, association } = checkBlendModel(SHIPPED[policy]);
    if (donor_evidence !== policy)
      throw new Error(`the blend shipped for ${policy} donors was fitted for ${donor_evidence} donors`);
    model = { version, min_score, donor_evidence, aspects, ...(association ? { association } : {}) };
    cached.set(policy, model);
  }
  return model;
}

/** The default blend: fitted with experimental donors, the default donor rule. */
export function defaultBlendModel(): BlendModel {
  return load('experimental');
}

/** The blend a prediction with these donors scores with: the one fitted for that policy. */
export function blendModelFor(policy: DonorPolicy): BlendModel {
  return load(policy);
}
