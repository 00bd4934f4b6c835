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
