import { DomainError, isUuid, notFound } from '@svc/contracts';
import { canModify, canRead, OwnedRow, ownershipForNew, Viewer, Visibility } from '@svc/domain';
import { NewOwnership, OwnedTable, ReferenceCheckRepository } from '@svc/persistence';
import { Principal } from '@svc/platform';
import { viewerOf } from './viewer';

/**
 * A row the viewer may read. One they may not is answered like a missing one (404), so an id tells
 * nobody whether someone else's row exists.
 */
export function requireReadable<T extends OwnedRow>(viewer: Viewer, row: T | null, entity: string): T {
  if (row === null || !canRead(viewer, row)) throw notFound(entity);
  return row;
}

/** A row the viewer may change: 404 when they may not even read it, 403 when they may read but not change it. */
export function requireModifiable<T extends OwnedRow>(viewer: Viewer, row: T | null, entity: string): T {
  const readable = requireReadable(viewer, row, entity);
  if (!canModify(viewer, readable))
    throw new DomainError(
      'forbidden',
      `only its owner or an operator may change this ${entity.toLowerCase()}`,
    );
  return readable;
}

/** Loads the ownership of `table` row `id` and checks the viewer's access to it (a malformed id is a 404). */
export async function checkAccess(
  references: ReferenceCheckRepository,
  input: { table: OwnedTable; id: string; entity: string; viewer: Viewer; access: 'read' | 'modify' },
): Promise<OwnedRow> {
  const row = isUuid(input.id) ? await references.ownership(input.table, input.id) : null;
  return input.access === 'read'
    ? requireReadable(input.viewer, row, input.entity)
    : requireModifiable(input.viewer, row, input.entity);
}

/** A prediction set the viewer may read (or change): 404, or 403 for a change, otherwise. */
export function requirePredictionSet(
  references: ReferenceCheckRepository,
  id: string,
  viewer: Viewer,
  access: 'read' | 'modify' = 'read',
): Promise<OwnedRow> {
  return checkAccess(references, { table: 'prediction_set', id, entity: 'Prediction set', viewer, access });
}

/**
 * The ownership a row the caller creates is stored with. `saveHistory: false` (and any guest's
 * row) is unlisted and expires after the guest retention period.
 */
export function newOwnershipFor(input: {
  principal: Principal | undefined;
  retentionDays: number;
  saveHistory?: boolean;
  defaultVisibility?: Visibility;
}): NewOwnership {
  const owned = ownershipForNew({
    viewer: viewerOf(input.principal),
    saveHistory: input.saveHistory,
    defaultVisibility: input.defaultVisibility,
  });
  return {
    owner_user_id: owned.owner_user_id,
    visibility: owned.visibility,
    expiresInDays: owned.expiring ? input.retentionDays : null,
  };
}
