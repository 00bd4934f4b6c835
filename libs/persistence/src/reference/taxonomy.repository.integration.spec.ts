import { DataSource } from 'typeorm';
import { TaxonomyNodeRow, TaxonomyRepository } from './taxonomy.repository';
import { useOwnDatabase } from '../../testing/repository-test-support';

// TaxonomyRepository in a database of its own (replaceAll swaps the whole tree): a release replaces
// every node in one transaction, and lineagesOf walks each taxon up to the root.

let db: DataSource;
let taxonomy: TaxonomyRepository;

useOwnDatabase('taxonomy', (opened) => {
  db = opened;
  taxonomy = new TaxonomyRepository(db);
});

const node = (taxId: number, parentTaxId: number, rank: string): TaxonomyNodeRow => ({
  taxId,
  parentTaxId,
  rank,
});

/** NCBI's shape: the root is its own parent. Human and mouse share Euarchontoglires (314146). */
const RELEASE = [
  node(1, 1, 'no rank'),
  node(2759, 1, 'superkingdom'),
  node(314146, 2759, 'superorder'),
  node(9606, 314146, 'species'),
  node(10090, 314146, 'species'),
  node(562, 1, 'species'),
];

const byTaxId = <T extends { tax_id: number }>(rows: T[]) => [...rows].sort((a, b) => a.tax_id - b.tax_id);

describe('TaxonomyRepository', () => {
  beforeAll(async () => {
    await taxonomy.replaceAll(RELEASE, '2024-01');
  });

  it('lineagesOf gives every node on a taxon’s lineage up to the root', async () => {
    expect(byTaxId(await taxonomy.lineagesOf([9606]))).toEqual([
      { tax_id: 1, parent_tax_id: 1, rank: 'no rank' },
      { tax_id: 2759, parent_tax_id: 1, rank: 'superkingdom' },
      { tax_id: 9606, parent_tax_id: 314146, rank: 'species' },
      { tax_id: 314146, parent_tax_id: 2759, rank: 'superorder' },
    ]);
  });

  it('lineagesOf merges the lineages of several taxa, each node once, and skips unknown taxa', async () => {
    const rows = await taxonomy.lineagesOf([9606, 10090, 424242]);
    expect(byTaxId(rows).map((r) => r.tax_id)).toEqual([1, 2759, 9606, 10090, 314146]);
    expect(await taxonomy.lineagesOf([424242])).toEqual([]);
    expect(await taxonomy.lineagesOf([])).toEqual([]);
  });

  it('replaceAll swaps the whole tree for the new release (the first of a repeated tax id kept)', async () => {
    await taxonomy.replaceAll(
      [
        node(1, 1, 'no rank'),
        node(9606, 1, 'species'),
        node(9606, 2759, 'duplicate'),
        node(7227, 1, 'species'),
      ],
      '2025-01',
    );
    expect(byTaxId(await taxonomy.lineagesOf([9606, 10090, 562]))).toEqual([
      { tax_id: 1, parent_tax_id: 1, rank: 'no rank' },
      { tax_id: 9606, parent_tax_id: 1, rank: 'species' },
    ]);
    expect(await db.query(`SELECT tax_id, source_version FROM taxonomy_node ORDER BY tax_id`)).toEqual([
      { tax_id: 1, source_version: '2025-01' },
      { tax_id: 7227, source_version: '2025-01' },
      { tax_id: 9606, source_version: '2025-01' },
    ]);
    await taxonomy.replaceAll(RELEASE, null);
    expect(
      await db.query(`SELECT count(*)::int AS n FROM taxonomy_node WHERE source_version IS NULL`),
    ).toEqual([{ n: RELEASE.length }]);
  });

  it('replaceAll keeps the old tree when the new release cannot be stored', async () => {
    await taxonomy.replaceAll(RELEASE, '2024-01');
    await expect(
      taxonomy.replaceAll([node(1, 1, 'no rank'), node(1.5, 1, 'species')], '2026-01'),
    ).rejects.toThrow(/invalid input syntax for type integer/);
    expect(byTaxId(await taxonomy.lineagesOf([10090])).map((r) => r.tax_id)).toEqual([
      1, 2759, 10090, 314146,
    ]);
    expect(await db.query(`SELECT count(*)::int AS n FROM taxonomy_node`)).toEqual([{ n: RELEASE.length }]);
  });
});
