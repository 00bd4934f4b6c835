import { DataSource } from 'typeorm';
import { bulkInsert } from '../bulk';
import { queryRows } from '../sql';

/** One node of the NCBI taxonomy (nodes.dmp). */
export interface TaxonomyNodeRow {
  taxId: number;
  parentTaxId: number;
  rank: string;
}

/** The NCBI taxonomy the taxonomic features read: one release at a time. */
export class TaxonomyRepository {
  constructor(private readonly db: DataSource) {}

  /** Every node on the lineages of these taxa, up to the root. */
  lineagesOf(
    taxIds: readonly number[],
  ): Promise<{ tax_id: number; parent_tax_id: number; rank: string | null }[]> {
    return queryRows(
      this.db,
      `WITH RECURSIVE lineage AS (
         SELECT tax_id, parent_tax_id, rank FROM taxonomy_node WHERE tax_id = ANY($1::int[])
         UNION
         SELECT n.tax_id, n.parent_tax_id, n.rank FROM taxonomy_node n JOIN lineage l ON n.tax_id = l.parent_tax_id
       ) SELECT tax_id, parent_tax_id, rank FROM lineage`,
      [[...taxIds]],
    );
  }

  /** Replaces every node with this release's, in one transaction (a failed load keeps the old tree). */
  async replaceAll(nodes: readonly TaxonomyNodeRow[], sourceVersion: string | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      await queryRows(tx, `DELETE FROM taxonomy_node`);
      await bulkInsert(tx, {
        table: 'taxonomy_node',
        columns: [
          { name: 'tax_id', type: 'int' },
          { name: 'parent_tax_id', type: 'int' },
          { name: 'rank', type: 'text' },
          { name: 'source_version', type: 'text' },
        ],
        rows: nodes.map((n) => [n.taxId, n.parentTaxId, n.rank, sourceVersion]),
        onConflict: 'ON CONFLICT (tax_id) DO NOTHING',
        chunkSize: 20_000,
      });
    });
  }
}
