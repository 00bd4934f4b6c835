import { Db, queryOne } from '../sql';

/** The download filters of a prediction set's rows: one protein, one aspect, a largest distance. */
export interface TsvFilters {
  accession?: string;
  aspect?: 'F' | 'P' | 'C';
  maxDistance?: number;
}

/** The rows of prediction set $1 that pass the download filters: $2 accession, $3 aspect, $4 largest distance. */
export const ROW_FILTER = `p.prediction_set_id = $1 AND ($2::text IS NULL OR p.protein_accession = $2)
  AND ($3::text IS NULL OR p.aspect = $3) AND ($4::real IS NULL OR p.distance <= $4::real)`;

/** The parameters $1 to $4 of ROW_FILTER. */
export function rowFilterParams(id: string, filters: TsvFilters): unknown[] {
  return [id, filters.accession ?? null, filters.aspect ?? null, filters.maxDistance ?? null];
}

/**
 * The filters on a table of proteins `t`: $1 set, $2 accession, $3 aspect, $4 after this accession
 * (no distance: a bound only sizes a batch).
 */
const proteinFilter = (
  t: string,
) => `${t}.prediction_set_id = $1 AND ($2::text IS NULL OR ${t}.protein_accession = $2)
  AND ($3::text IS NULL OR ${t}.aspect = $3) AND ($4::text IS NULL OR ${t}.protein_accession > $4)`;

/**
 * The accession past which a batch has about `$5` rows: the nearer of the accession `$5` stored rows
 * on and the one past which the composed (protein, aspect) pairs record `$5` rows, each read in
 * accession order from its own index and no further than its batch, so a bound composes nothing. A
 * batch holds at most about twice `$5` rows.
 */
const BOUND = `SELECT LEAST(
    (SELECT p.protein_accession FROM prediction p WHERE ${proteinFilter('p')}
      ORDER BY p.protein_accession OFFSET $5 LIMIT 1),
    (SELECT protein_accession FROM (
       SELECT w.protein_accession,
              sum(w.composed_rows) OVER (ORDER BY w.protein_accession ROWS UNBOUNDED PRECEDING) AS seen
         FROM prediction_prior_weight w WHERE ${proteinFilter('w')}) running
      WHERE seen > $5 LIMIT 1)) AS protein_accession`;

/**
 * A set's rows as consecutive accession ranges of about `rows` rows each, whole proteins: the upper
 * bound is the accession `rows` rows past the last range (the last range is open). Each batch is a
 * condition over the alias `p` and its parameters ($1 to $6); a reader sorts the rows within it, so
 * no page depends on an index of the composed rows.
 */
export async function* proteinBatches(
  db: Db,
  id: string,
  filters: TsvFilters,
  rows: number,
): AsyncGenerator<ProteinBatch> {
  let after: string | null = null;
  for (;;) {
    const params: unknown[] = [...rowFilterParams(id, filters), after];
    const bound: { protein_accession: string } | null = await queryOne<{ protein_accession: string }>(
      db,
      BOUND,
      [id, filters.accession ?? null, filters.aspect ?? null, after, rows],
    );
    const upto: string | null = bound?.protein_accession ?? null;
    yield {
      where: `${ROW_FILTER} AND ($5::text IS NULL OR p.protein_accession > $5)
        AND ($6::text IS NULL OR p.protein_accession <= $6)`,
      params: [...params, upto],
    };
    if (upto === null) return;
    after = upto;
  }
}

/** One batch of `proteinBatches`: a condition over the alias `p` and its parameters. */
export interface ProteinBatch {
  where: string;
  params: unknown[];
}

/** Each batch of `proteinBatches`, read by `read` one batch ahead of the caller (`readAhead`). */
export function readProteinBatches<T>(
  db: Db,
  id: string,
  filters: TsvFilters,
  rows: number,
  read: (batch: ProteinBatch) => Promise<T>,
): AsyncGenerator<T> {
  return readAhead(proteinBatches(db, id, filters, rows), read);
}

/**
 * Reads each batch with `read` one batch ahead of its consumer: while the caller formats batch n,
 * the database already reads batch n + 1, so on a machine where PostgreSQL and the reader share the
 * cores the two overlap instead of taking turns. At most two batches are in memory; a read that
 * fails surfaces when its batch is reached, and one left behind by a consumer that stops is dropped.
 */
export async function* readAhead<B, T>(
  batches: AsyncIterable<B>,
  read: (batch: B) => Promise<T>,
): AsyncGenerator<T> {
  let pending: Promise<T> | null = null;
  for await (const batch of batches) {
    const next = read(batch);
    // A consumer that stops never awaits the read ahead; its failure must not go unhandled.
    next.catch(() => undefined);
    if (pending !== null) yield await pending;
    pending = next;
  }
  if (pending !== null) yield await pending;
}
