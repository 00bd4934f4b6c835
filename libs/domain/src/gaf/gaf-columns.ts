/** GAF column names, 1-based as in the specification, for error messages that point at a column. */
export const GAF_COLUMNS = [
  'DB',
  'DB Object ID',
  'DB Object Symbol',
  'Qualifier',
  'GO ID',
  'DB:Reference',
  'Evidence Code',
  'With (or) From',
  'Aspect',
  'DB Object Name',
  'DB Object Synonym',
  'DB Object Type',
  'Taxon',
  'Date',
  'Assigned By',
  'Annotation Extension',
  'Gene Product Form ID',
] as const;

export const GAF_COLUMN_COUNT = GAF_COLUMNS.length;

/**
 * GAF 2.1 and 2.2 both define 17 columns, but the last two are optional and many producers drop the
 * trailing empty ones, so 15 columns is the shortest complete line.
 */
export const GAF_MIN_COLUMN_COUNT = 15;

/** Columns (1-based) that must not be empty. */
export const GAF_REQUIRED_COLUMNS: readonly number[] = [1, 2, 3, 5, 6, 7, 9, 12, 13, 14, 15];

export function gafColumnLabel(column: number): string {
  return `${GAF_COLUMNS[column - 1] ?? 'unknown'} (column ${column})`;
}
