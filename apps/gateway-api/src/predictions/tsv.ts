import { Readable } from 'node:stream';
import { StreamableFile } from '@nestjs/common';

const BREAKS = /[\t\r\n]/;

/** A TSV cell: empty for null/undefined, numbers as they are, tabs and newlines flattened. */
export function tsvCell(value: unknown): string {
  // Strings first and tested before replacing: nearly every cell is a string with nothing to flatten.
  if (typeof value === 'string') return BREAKS.test(value) ? value.replace(/[\t\r\n]+/g, ' ') : value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** A header line (unless null) and then each chunk of rows as TSV text. */
export async function* tsvLines(
  columns: readonly string[] | null,
  chunks: AsyncIterable<readonly (readonly unknown[])[]>,
): AsyncGenerator<string> {
  if (columns !== null) yield `${columns.join('\t')}\n`;
  for await (const rows of chunks) {
    if (rows.length === 0) continue;
    yield rows.map((r) => r.map(tsvCell).join('\t')).join('\n') + '\n';
  }
}

/**
 * A download's body read from `source` one chunk at a time: at most one chunk (a batch of lines) waits
 * beyond what the socket holds, so memory stays flat in the file's size.
 */
export function downloadStream(source: AsyncIterable<string | Uint8Array>): Readable {
  return Readable.from(source, { highWaterMark: 1 });
}

/** Streams a header line and then each chunk of rows, so a large export never sits in memory. */
export function streamTsv(
  columns: readonly string[] | null,
  chunks: AsyncIterable<readonly (readonly unknown[])[]>,
  filename: string,
): StreamableFile {
  return new StreamableFile(downloadStream(tsvLines(columns, chunks)), {
    type: 'text/tab-separated-values; charset=utf-8',
    disposition: `attachment; filename="${filename}"`,
  });
}
