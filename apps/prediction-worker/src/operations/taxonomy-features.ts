import { DataSource } from 'typeorm';

export interface TaxonomyFeatures {
  query_taxonomy_id: string | null;
  ref_taxonomy_id: string | null;
  taxonomic_lca: string | null;
  taxonomic_distance: number | null;
  taxonomic_common_ancestors: number | null;
  taxonomic_relation: string | null;
}

// Placeholder until the taxonomy domain module lands (replaced before commit).
export async function taxonomyFeatures(
  _db: DataSource,
  pairs: { query: string | null; ref: string | null }[],
): Promise<TaxonomyFeatures[]> {
  return pairs.map((p) => ({
    query_taxonomy_id: p.query,
    ref_taxonomy_id: p.ref,
    taxonomic_lca: null,
    taxonomic_distance: null,
    taxonomic_common_ancestors: null,
    taxonomic_relation: null,
  }));
}
