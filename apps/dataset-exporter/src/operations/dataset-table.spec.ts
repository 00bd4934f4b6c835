import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { datasetColumns, DatasetRow, DatasetTableWriter } from './dataset-table';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson();
  } finally {
    connection.closeSync();
  }
}

const row = (protein: string, label: 0 | 1, features: Record<string, unknown>, extra = {}): DatasetRow => ({
  snapshotPair: '1->2',
  category: label === 1 ? 'NK' : null,
  label,
  row: { protein_accession: protein, go_id: 'GO:0005515', aspect: 'F', ...features },
  extra,
});

describe('DatasetTableWriter', () => {
  it('writes one row group per batch that DuckDB reads back value for value, missing features as null', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dataset-table-'));
    dirs.push(dir);
    const path = join(dir, 'train.parquet');
    const writer = new DatasetTableWriter(path, datasetColumns(['distance', 'min_distance', 'emb_pca_0']));
    await writer.append([
      row(
        'P1',
        1,
        { distance: 0.25, features: { min_distance: 0.125 }, qualifier: 'enables' },
        { emb_pca_0: -1.5 },
      ),
      row('P2', 0, { distance: Number.NaN, features: {} }),
    ]);
    await writer.append([]);
    await writer.append([row('P3', 0, { distance: '0.5', query_taxonomy_id: 9606 })]);
    await writer.finish();
    expect(writer.rows).toBe(3);

    const rows = await query(`SELECT * FROM read_parquet('${path}') ORDER BY protein_accession`);
    expect(rows.map((r) => [r['protein_accession'], r['label'], r['category'], r['distance']])).toEqual([
      ['P1', 1, 'NK', 0.25],
      ['P2', 0, null, null],
      ['P3', 0, null, 0.5],
    ]);
    expect(rows[0]).toMatchObject({
      min_distance: 0.125,
      emb_pca_0: -1.5,
      qualifier: 'enables',
      snapshot_pair: '1->2',
    });
    expect(rows[1]).toMatchObject({ min_distance: null, emb_pca_0: null, qualifier: null });
    expect(rows[2]!['query_taxonomy_id']).toBe('9606');
    const [meta] = await query(`SELECT num_row_groups FROM parquet_file_metadata('${path}')`);
    expect(Number(meta!['num_row_groups'])).toBe(2);
    const schema = await query(`SELECT name, type FROM parquet_schema('${path}') WHERE name <> 'schema'`);
    expect(schema.find((c) => c['name'] === 'label')!['type']).toBe('INT32');
    expect(schema.find((c) => c['name'] === 'distance')!['type']).toBe('DOUBLE');
  });
});
