import type { TaxonomicRelation, TaxonomyIndex } from './taxonomy-index';

/** The taxonomy columns of a prediction row (DESIGN.md §3, predictions.tsv); all null when unknown. */
export interface TaxonomyFeatures {
  taxonomic_lca: number | null;
  taxonomic_distance: number | null;
  taxonomic_common_ancestors: number | null;
  /** How the reference's taxon stands to the query's (see TaxonomicRelation). */
  taxonomic_relation: TaxonomicRelation | null;
}

/**
 * Compares the query protein's taxon with the reference (donor) protein's. A missing tax id on
 * either side, or a lineage the index does not know, gives nulls: DESIGN.md §4 wants unknown
 * taxonomy kept apart from a real distance of 0.
 */
export function compareTaxa(input: {
  index: TaxonomyIndex;
  query: number | null | undefined;
  reference: number | null | undefined;
}): TaxonomyFeatures {
  const { index, query, reference } = input;
  const unknown: TaxonomyFeatures = {
    taxonomic_lca: null,
    taxonomic_distance: null,
    taxonomic_common_ancestors: null,
    taxonomic_relation: null,
  };
  if (query === null || query === undefined || reference === null || reference === undefined) return unknown;
  const lca = index.lowestCommonAncestor(query, reference);
  if (lca === null) return unknown;
  return {
    taxonomic_lca: lca,
    taxonomic_distance: index.taxonomicDistance(query, reference),
    taxonomic_common_ancestors: index.commonAncestorCount(query, reference),
    taxonomic_relation: index.relation(query, reference),
  };
}
