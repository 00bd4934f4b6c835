import { Role } from '../identity/limits';

/**
 * Who may see a row: `owner` (its owner and staff), `unlisted` (anyone holding its id, never listed:
 * a capability URL), `public` (everyone, listed).
 */
export type Visibility = 'owner' | 'unlisted' | 'public';

export interface OwnedRow {
  owner_user_id: string | null;
  visibility: Visibility;
}

/** The caller as the ownership rules see it. `unrestricted` is the gate switched off (a closed deployment). */
export interface Viewer {
  role: Role;
  userId: string | null;
  unrestricted: boolean;
}

/** Operators and administrators read and manage everything; so does every caller when the gate is off. */
export function isStaff(viewer: Viewer): boolean {
  return viewer.unrestricted || viewer.role === 'operator' || viewer.role === 'admin';
}

function isOwner(viewer: Viewer, row: OwnedRow): boolean {
  return viewer.userId !== null && row.owner_user_id === viewer.userId;
}

/** Reading one row by its id. */
export function canRead(viewer: Viewer, row: OwnedRow): boolean {
  if (isStaff(viewer) || row.visibility !== 'owner') return true;
  return isOwner(viewer, row);
}

/** Cancelling, deleting or otherwise changing a row: its owner and staff only. */
export function canModify(viewer: Viewer, row: OwnedRow): boolean {
  return isStaff(viewer) || isOwner(viewer, row);
}

/**
 * Which rows a list shows. Unlisted rows are never listed (not even to their owner): they are reached
 * through the ids their creation returned. `mine` narrows any caller to the rows they own.
 */
export type ListScope =
  { kind: 'all' } | { kind: 'public_and_own'; userId: string | null } | { kind: 'own'; userId: string };

export function listScope(viewer: Viewer, mine = false): ListScope {
  if (mine) {
    // A guest owns nothing: `mine` shows an empty list rather than everything.
    return { kind: 'own', userId: viewer.userId ?? '00000000-0000-0000-0000-000000000000' };
  }
  if (isStaff(viewer)) return { kind: 'all' };
  return { kind: 'public_and_own', userId: viewer.userId };
}

/** Ownership of a row a caller creates. `saveHistory: false` makes a one-click result unlisted and expiring. */
export function ownershipForNew(input: {
  viewer: Viewer;
  saveHistory?: boolean;
  /** The default visibility of this kind of row (evaluation results are published). */
  defaultVisibility?: Visibility;
}): OwnedRow & { expiring: boolean } {
  const unlisted = input.saveHistory === false || (input.viewer.userId === null && !isStaff(input.viewer));
  return {
    owner_user_id: input.viewer.userId,
    visibility: unlisted ? 'unlisted' : (input.defaultVisibility ?? 'owner'),
    expiring: unlisted,
  };
}
