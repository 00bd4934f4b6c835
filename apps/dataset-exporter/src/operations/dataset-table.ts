import { closeSync, openSync, writeSync } from 'node:fs';
import { featureValue } from '@svc/domain';
import { PredictionRow } from '@svc/persistence';
import { ByteWriter, ColumnSource, ParquetWriter, schemaFromColumnData, Writer } from 'hyparquet-writer';

export interface DatasetColumn {
  readonly name: string;
  readonly type: 'STRING' | 'DOUBLE' | 'INT32';
  readonly nullable: boolean;
}

/** Identifying and descriptive columns; every feature column follows them as a nullable DOUBLE. */
const LEADING_COLUMNS: readonly DatasetColumn[] = [
  { name: 'snapshot_pair', type: 'STRING', nullable: false },
  { name: 'category', type: 'STRING', nullable: true },
  { name: 'protein_accession', type: 'STRING', nullable: false },
  { name: 'go_id', type: 'STRING', nullable: false },
  { name: 'aspect', type: 'STRING', nullable: true },
  { name: 'label', type: 'INT32', nullable: false },
  { name: 'ref_protein_accession', type: 'STRING', nullable: true },
  { name: 'qualifier', type: 'STRING', nullable: true },
  { name: 'evidence_code', type: 'STRING', nullable: true },
  { name: 'query_taxonomy_id', type: 'STRING', nullable: true },
  { name: 'ref_taxonomy_id', type: 'STRING', nullable: true },
  { name: 'taxonomic_lca', type: 'STRING', nullable: true },
  { name: 'taxonomic_relation', type: 'STRING', nullable: true },
];

/** The table layout: leading columns, then the features in schema order, then the PCA columns. */
export function datasetColumns(featureNames: readonly string[]): DatasetColumn[] {
  return [
    ...LEADING_COLUMNS,
    ...featureNames.map((name) => ({ name, type: 'DOUBLE' as const, nullable: true })),
  ];
}

/** One labelled row: a prediction row plus the pair, category, label and extra feature values. */
export interface DatasetRow {
  snapshotPair: string;
  category: string | null;
  label: 0 | 1;
  row: PredictionRow;
  extra: Readonly<Record<string, number>>;
}

/**
 * A byte writer that drains to a file after every row group (ParquetWriter calls `flush` then), so
 * the buffer never holds more than one row group. `offset` keeps counting the bytes written, which
 * is what the footer's offsets are computed from.
 */
function drainingFileWriter(path: string): Writer {
  const writer: ByteWriter & Writer = new ByteWriter();
  const fd = openSync(path, 'w');
  const drain = (): void => {
    if (writer.index > 0) writeSync(fd, new Uint8Array(writer.buffer, 0, writer.index));
    writer.index = 0;
  };
  writer.flush = drain;
  writer.finish = () => {
    drain();
    closeSync(fd);
  };
  return writer;
}

const text = (value: unknown): string | null => {
  if (value === null || value === undefined || value === '') return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
};

/**
 * A parquet file written one row group per appended batch, so a large export never holds more than
 * one batch of rows in memory. Features are read with the same accessor the re-ranker uses at
 * inference (`featureValue`), so a column holds exactly what the booster would see; a missing value
 * is null.
 */
export class DatasetTableWriter {
  private readonly writer: ParquetWriter;

  rows = 0;

  constructor(
    path: string,
    private readonly columns: readonly DatasetColumn[],
  ) {
    const schema = schemaFromColumnData({
      columnData: columns.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable, data: [] })),
    });
    this.writer = new ParquetWriter({
      writer: drainingFileWriter(path),
      schema,
      createdBy: 'svc dataset-exporter',
    });
  }

  async append(batch: readonly DatasetRow[]): Promise<void> {
    if (batch.length === 0) return;
    const columnData: ColumnSource[] = this.columns.map((column) => ({
      name: column.name,
      type: column.type,
      nullable: column.nullable,
      data: batch.map((r) => this.value(r, column)),
    }));
    await this.writer.write({ columnData, rowGroupSize: batch.length });
    this.rows += batch.length;
  }

  async finish(): Promise<void> {
    await this.writer.finish();
  }

  private value(r: DatasetRow, column: DatasetColumn): string | number | null {
    switch (column.name) {
      case 'snapshot_pair':
        return r.snapshotPair;
      case 'category':
        return r.category;
      case 'label':
        return r.label;
    }
    if (column.type === 'STRING') return text(r.row[column.name as keyof PredictionRow]);
    const extra = r.extra[column.name];
    const value = extra !== undefined ? extra : featureValue(r.row, column.name);
    return Number.isFinite(value) ? value : null;
  }
}
