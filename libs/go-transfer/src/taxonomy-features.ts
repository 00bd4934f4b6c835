import { compareTaxa, TaxonomyIndex } from '@svc/domain';
import { Repositories } from '@svc/persistence';

export interface TaxonomyColumns {
  query_taxonomy_id: string | null;
  ref_taxonomy_id: string | null;
  taxonomic_lca: string | null;
  taxonomic_distance: number | null;
  taxonomic_common_ancestors: number | null;
  taxonomic_relation: string | null;
}

const taxId = (value: string | null): number | null => {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
};

/**
 * Taxonomy features of (query, reference) taxon pairs from the loaded NCBI tree: only the lineages
 * of the taxa involved are read (one recursive query). Unknown taxa, or no tree loaded, give nulls.
 */
export async function taxonomyFeatures(
  repos: Repositories,
  pairs: { query: string | null; ref: string | null }[],
): Promise<TaxonomyColumns[]> {
  const ids = [
    ...new Set(pairs.flatMap((p) => [taxId(p.query), taxId(p.ref)]).filter((t): t is number => t !== null)),
  ];
  const nodes = ids.length === 0 ? [] : await repos.taxonomy.lineagesOf(ids);
  const index = TaxonomyIndex.fromNodes(
    nodes.map((n) => ({ taxId: n.tax_id, parentTaxId: n.parent_tax_id, rank: n.rank ?? 'no rank' })),
  );
  return pairs.map((p) => {
    const features = compareTaxa({ index, query: taxId(p.query), reference: taxId(p.ref) });
    return {
      query_taxonomy_id: p.query,
      ref_taxonomy_id: p.ref,
      taxonomic_lca: features.taxonomic_lca === null ? null : String(features.taxonomic_lca),
      taxonomic_distance: features.taxonomic_distance,
      taxonomic_common_ancestors: features.taxonomic_common_ancestors,
      taxonomic_relation: features.taxonomic_relation,
    };
  });
}
