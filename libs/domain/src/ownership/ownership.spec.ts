import { canModify, canRead, listScope, ownershipForNew, OwnedRow, Viewer } from './ownership';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const guest: Viewer = { role: 'guest', userId: null, unrestricted: false };
const alice: Viewer = { role: 'researcher', userId: A, unrestricted: false };
const bob: Viewer = { role: 'researcher', userId: B, unrestricted: false };
const operator: Viewer = { role: 'operator', userId: B, unrestricted: false };
const gateOff: Viewer = { role: 'admin', userId: null, unrestricted: true };

const ownedByA: OwnedRow = { owner_user_id: A, visibility: 'owner' };
const unlistedByA: OwnedRow = { owner_user_id: A, visibility: 'unlisted' };
const guestResult: OwnedRow = { owner_user_id: null, visibility: 'unlisted' };
const published: OwnedRow = { owner_user_id: B, visibility: 'public' };
const system: OwnedRow = { owner_user_id: null, visibility: 'owner' };

describe('ownership rules', () => {
  it.each([
    ['owner reads own', alice, ownedByA, true, true],
    ['another researcher cannot read or change it', bob, ownedByA, false, false],
    ['a guest cannot read an owned row', guest, ownedByA, false, false],
    ['operators read and change everything', operator, ownedByA, true, true],
    ['gate off reads and changes everything', gateOff, ownedByA, true, true],
    ['an unlisted row is readable by id, not changeable by others', bob, unlistedByA, true, false],
    ['its owner changes an unlisted row', alice, unlistedByA, true, true],
    ["a guest's result is readable by id", guest, guestResult, true, false],
    ['published rows stay changeable by their owner', bob, published, true, true],
    ['published rows are readable, not changeable, by others', alice, published, true, false],
    ['system rows are staff-only', alice, system, false, false],
  ])('%s', (_name, viewer, row, read, modify) => {
    expect(canRead(viewer, row)).toBe(read);
    expect(canModify(viewer, row)).toBe(modify);
  });

  it.each([
    ['staff list everything', operator, false, { kind: 'all' }],
    ['researchers list public and own', alice, false, { kind: 'public_and_own', userId: A }],
    ['guests list public only', guest, false, { kind: 'public_and_own', userId: null }],
    ['mine narrows staff to their own', operator, true, { kind: 'own', userId: B }],
    [
      'mine for a guest is empty',
      guest,
      true,
      { kind: 'own', userId: '00000000-0000-0000-0000-000000000000' },
    ],
  ] as const)('%s', (_name, viewer, mine, expected) => {
    expect(listScope(viewer, mine)).toEqual(expected);
  });

  it.each([
    [
      'a researcher saving history',
      alice,
      true,
      undefined,
      { owner_user_id: A, visibility: 'owner', expiring: false },
    ],
    [
      'a researcher not saving history',
      alice,
      false,
      undefined,
      { owner_user_id: A, visibility: 'unlisted', expiring: true },
    ],
    ['a guest', guest, undefined, undefined, { owner_user_id: null, visibility: 'unlisted', expiring: true }],
    [
      'an evaluation result',
      operator,
      undefined,
      'public',
      { owner_user_id: B, visibility: 'public', expiring: false },
    ],
    [
      'gate off',
      gateOff,
      undefined,
      undefined,
      { owner_user_id: null, visibility: 'owner', expiring: false },
    ],
  ] as const)('%s', (_name, viewer, saveHistory, defaultVisibility, expected) => {
    expect(ownershipForNew({ viewer, saveHistory, defaultVisibility })).toEqual(expected);
  });
});
