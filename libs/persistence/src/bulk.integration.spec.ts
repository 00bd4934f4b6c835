import { DataSource } from 'typeorm';
import { copyInto } from './bulk';
import { queryRows } from './sql';
import { useRunDatabase } from '../testing/repository-test-support';

// copyInto against the run's PostgreSQL: every value kind and escape arrives as written, and a row
// PostgreSQL refuses fails the load without leaving the connection stuck in COPY.

let db: DataSource;
useRunDatabase((opened) => {
  db = opened;
});

const COLUMNS = [
  { name: 'label', type: 'text' },
  { name: 'n', type: 'int' },
  { name: 'flag', type: 'bool' },
  { name: 'note', type: 'text' },
];

describe('copyInto', () => {
  it('writes text with tabs, newlines, carriage returns and backslashes, numbers, booleans and NULL as given', async () => {
    const rows = await db.transaction(async (tx) => {
      await queryRows(tx, 'CREATE TEMP TABLE copy_probe (label text NOT NULL, n int, flag bool, note text)');
      const copy = await copyInto(tx, 'copy_probe', COLUMNS);
      await copy.write([
        ['a\tb', 1, true, null],
        ['c\nd\re\\f', -2, false, '\\N'],
      ]);
      await copy.write([]);
      await copy.write([['g', 3, null, 'plain']]);
      await copy.finish();
      return queryRows<{ label: string; n: number; flag: boolean | null; note: string | null }>(
        tx,
        'SELECT label, n, flag, note FROM copy_probe ORDER BY n DESC',
      );
    });
    expect(rows).toEqual([
      { label: 'g', n: 3, flag: null, note: 'plain' },
      { label: 'a\tb', n: 1, flag: true, note: null },
      { label: 'c\nd\re\\f', n: -2, flag: false, note: '\\N' },
    ]);
  });

  it('a refused row fails the load, the transaction rolls back, and the connection serves the next statement', async () => {
    const outcome = await db
      .transaction(async (tx) => {
        await queryRows(
          tx,
          'CREATE TEMP TABLE copy_refused (label text NOT NULL, n int, flag bool, note text)',
        );
        const copy = await copyInto(tx, 'copy_refused', COLUMNS);
        await copy.write([[null, 1, true, null]]);
        await copy.finish();
      })
      .then(
        () => 'committed',
        (error: unknown) => (error as Error).message,
      );
    expect(outcome).toMatch(/null value in column "label"/);
    expect(await queryRows<{ one: number }>(db, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('refuses a value that is no text, number or boolean before anything is sent', async () => {
    await expect(
      db.transaction(async (tx) => {
        await queryRows(tx, 'CREATE TEMP TABLE copy_typed (label text, n int, flag bool, note text)');
        const copy = await copyInto(tx, 'copy_typed', COLUMNS);
        try {
          await copy.write([[{ not: 'text' }, 1, true, null]]);
        } finally {
          await copy.finish();
        }
      }),
    ).rejects.toThrow(/not object/);
  });
});
