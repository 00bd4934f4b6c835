/** The flags of predict_go_terms that decide which features a prediction row carries. */
export interface FeatureFlags {
  readonly compute_alignments: boolean;
  readonly compute_taxonomy: boolean;
  readonly compute_reranker_features: boolean;
  readonly compute_self_prior: boolean;
  readonly compute_association: boolean;
  readonly compute_ia: boolean;
  readonly compute_v6_features: boolean;
}

export const DEFAULT_FEATURE_FLAGS: FeatureFlags = {
  compute_alignments: true,
  compute_taxonomy: true,
  compute_reranker_features: true,
  compute_self_prior: false,
  compute_association: false,
  compute_ia: false,
  compute_v6_features: false,
};

export const ALIGNMENT_FEATURES = [
  'identity_nw',
  'similarity_nw',
  'alignment_score_nw',
  'gaps_pct_nw',
  'alignment_length_nw',
  'identity_sw',
  'similarity_sw',
  'alignment_score_sw',
  'gaps_pct_sw',
  'alignment_length_sw',
  'length_query',
  'length_ref',
] as const;

export const NEIGHBOURHOOD_FEATURES = [
  'go_term_frequency',
  'ref_annotation_density',
  'neighbor_distance_std',
  'neighbor_vote_fraction',
  'min_distance',
  'mean_distance',
] as const;

export const TAXONOMY_FEATURES = ['taxonomic_distance', 'taxonomic_common_ancestors'] as const;

/** Names of the v6 features; they stay null without a term-embedding file. */
export const V6_FEATURES = ['term_embedding_similarity'] as const;

/**
 * The ordered numeric feature names a re-ranker sees for these flags. The order is part of the
 * contract: the export's `schema_sha` and the live sha of a prediction batch hash this list.
 */
export function activeFeatureNames(flags: FeatureFlags): string[] {
  const names: string[] = ['distance', 'vote_count', 'k_position'];
  if (flags.compute_reranker_features) names.push(...NEIGHBOURHOOD_FEATURES);
  if (flags.compute_alignments) names.push(...ALIGNMENT_FEATURES);
  if (flags.compute_taxonomy) names.push(...TAXONOMY_FEATURES);
  if (flags.compute_self_prior) names.push('self_prior');
  if (flags.compute_association) names.push('association_max');
  if (flags.compute_ia) names.push('ia');
  if (flags.compute_v6_features) names.push(...V6_FEATURES);
  return names;
}

/** Reads the flags from a payload, filling the defaults. */
export function featureFlagsOf(
  payload: Partial<Record<keyof FeatureFlags, boolean | undefined>>,
): FeatureFlags {
  const out = { ...DEFAULT_FEATURE_FLAGS };
  for (const key of Object.keys(DEFAULT_FEATURE_FLAGS) as (keyof FeatureFlags)[]) {
    const value = payload[key];
    if (typeof value === 'boolean') out[key] = value;
  }
  return out;
}
