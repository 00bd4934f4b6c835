import { isStaff, Viewer } from '@svc/domain';
import { AppConfig, canonicalHost, publicSourceName } from '@svc/platform';

/**
 * A row's stored sources as `viewer` may see them (docs/security.md, "Sources: what the server
 * reads"): operators and administrators the URIs as stored; everyone else `publicSourceName`, the
 * hosts of SVC_SOURCE_ALLOWED_HOSTS counting as private (they are mirrors on the private network).
 */
export function showSources<T extends object>(
  row: T,
  fields: readonly (keyof T)[],
  viewer: Viewer,
  config: AppConfig,
): T {
  if (isStaff(viewer)) return row;
  const privateHosts = new Set(config.security.sourceAllowedHosts.map(canonicalHost));
  const shown = { ...row };
  // A field that holds no string (null, or absent) is left as it is.
  for (const field of fields) {
    const value = row[field];
    if (typeof value === 'string')
      (shown as Record<keyof T, unknown>)[field] = publicSourceName(value, { privateHosts });
  }
  return shown;
}

/** `showSources` for every row of a list. */
export function showSourcesOfEach<T extends object>(
  rows: readonly T[],
  fields: readonly (keyof T)[],
  viewer: Viewer,
  config: AppConfig,
): T[] {
  return rows.map((row) => showSources(row, fields, viewer, config));
}
