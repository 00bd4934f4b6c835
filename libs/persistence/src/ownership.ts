import { ListScope, OwnedRow } from '@svc/domain';

/** The ownership columns of an owned table, for SELECT lists. */
export const OWNERSHIP_COLUMNS = ['owner_user_id', 'visibility'] as const;

/**
 * The WHERE condition that keeps the rows a list scope may see, with its parameters numbered from
 * `firstParam` (`$n`). Unlisted rows never appear in a list.
 */
export function ownershipCondition(
  scope: ListScope,
  firstParam: number,
  alias = '',
): { sql: string; params: unknown[] } {
  const col = (name: string): string => (alias === '' ? name : `${alias}.${name}`);
  switch (scope.kind) {
    case 'all':
      return { sql: 'TRUE', params: [] };
    case 'own':
      return {
        sql: `(${col('owner_user_id')} = $${firstParam} AND ${col('visibility')} <> 'unlisted')`,
        params: [scope.userId],
      };
    case 'public_and_own':
      return scope.userId === null
        ? { sql: `${col('visibility')} = 'public'`, params: [] }
        : {
            sql: `(${col('visibility')} = 'public' OR (${col('visibility')} = 'owner' AND ${col('owner_user_id')} = $${firstParam}))`,
            params: [scope.userId],
          };
  }
}

/** Ownership of a new row, as stored: owner, visibility and, for unlisted rows, when they expire. */
export interface NewOwnership extends OwnedRow {
  /** Days until the retention purge removes the row; null keeps it. */
  expiresInDays: number | null;
}
