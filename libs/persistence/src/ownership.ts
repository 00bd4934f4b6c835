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

/**
 * SQL that holds when the sequence `column` (a `sequence.id`) is public: a protein's, or an entry's
 * of a public query set. Sequences only private work holds (a guest's one-click upload, a
 * researcher's query set) are left out of every public count.
 */
export function publicSequenceCondition(column: string): string {
  return `(EXISTS (SELECT 1 FROM protein pub_p WHERE pub_p.sequence_id = ${column})
    OR EXISTS (SELECT 1 FROM query_set_entry pub_e JOIN query_set pub_q ON pub_q.id = pub_e.query_set_id
                WHERE pub_e.sequence_id = ${column} AND pub_q.visibility = 'public'))`;
}

/** Ownership of a new row, as stored: owner, visibility and, for unlisted rows, when they expire. */
export interface NewOwnership extends OwnedRow {
  /** Days until the retention purge removes the row; null keeps it. */
  expiresInDays: number | null;
}
