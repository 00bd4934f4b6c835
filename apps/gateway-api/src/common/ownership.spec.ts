import { DomainError } from '@svc/contracts';
import { OwnedRow, Viewer } from '@svc/domain';
import { Principal } from '@svc/platform';
import { newOwnershipFor, requireModifiable, requireReadable } from './ownership';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const alice: Viewer = { role: 'researcher', userId: A, unrestricted: false };
const bob: Viewer = { role: 'researcher', userId: B, unrestricted: false };
const operator: Viewer = { role: 'operator', userId: B, unrestricted: false };
const ownedByA: OwnedRow = { owner_user_id: A, visibility: 'owner' };
const guestResult: OwnedRow = { owner_user_id: null, visibility: 'unlisted' };

function principal(kind: Principal['kind'], role: Principal['role'], userId: string | null): Principal {
  return { kind, role, userId, rateKey: 'k', addressHash: 'h', sessionJti: null };
}

/** The error code a check throws, or 'ok'. */
function outcome(check: () => unknown): string {
  try {
    check();
    return 'ok';
  } catch (error) {
    return error instanceof DomainError ? error.code : 'other';
  }
}

describe('ownership checks of the gateway', () => {
  it.each([
    ['its owner reads and changes it', alice, ownedByA, 'ok', 'ok'],
    ["another researcher's row is as unknown as a missing one", bob, ownedByA, 'not_found', 'not_found'],
    ['staff read and change it', operator, ownedByA, 'ok', 'ok'],
    ['a readable row others may not change is forbidden', bob, guestResult, 'ok', 'forbidden'],
    ['no row at all', alice, null, 'not_found', 'not_found'],
  ] as const)('%s', (_name, viewer, row, read, modify) => {
    expect(outcome(() => requireReadable(viewer, row, 'Query set'))).toBe(read);
    expect(outcome(() => requireModifiable(viewer, row, 'Query set'))).toBe(modify);
  });

  it.each([
    [
      'a researcher upload joins their history',
      principal('session', 'researcher', A),
      undefined,
      { owner_user_id: A, visibility: 'owner', expiresInDays: null },
    ],
    [
      'save_history=false is unlisted and expires after the retention period',
      principal('session', 'researcher', A),
      false,
      { owner_user_id: A, visibility: 'unlisted', expiresInDays: 7 },
    ],
    [
      "a guest's work is unlisted and expires",
      principal('anonymous', 'guest', null),
      undefined,
      { owner_user_id: null, visibility: 'unlisted', expiresInDays: 7 },
    ],
    [
      'with the gate off nothing expires unless asked',
      principal('gate_disabled', 'admin', null),
      true,
      { owner_user_id: null, visibility: 'owner', expiresInDays: null },
    ],
  ] as const)('%s', (_name, who, saveHistory, expected) => {
    expect(newOwnershipFor({ principal: who, retentionDays: 7, saveHistory })).toEqual(expected);
  });
});
