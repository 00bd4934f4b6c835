/** A feature's value on a prediction row: its column, else its entry in `features`; NaN when missing. */
export function featureValue(row: Readonly<Record<string, unknown>>, name: string): number {
  const direct = row[name];
  const nested = (row['features'] as Record<string, unknown> | null | undefined)?.[name];
  const value = direct !== undefined && direct !== null ? direct : nested;
  if (value === null || value === undefined || value === '') return Number.NaN;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : Number.NaN;
}

/** The feature vector a re-ranker sees, in its own feature order (NaN marks a missing value). */
export function featureVector(
  row: Readonly<Record<string, unknown>>,
  names: readonly string[],
): Float64Array {
  return Float64Array.from(names, (name) => featureValue(row, name));
}
