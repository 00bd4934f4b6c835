import { viewerOfJob } from './job-viewer';

const A = '11111111-1111-4111-8111-111111111111';

describe('viewerOfJob', () => {
  it.each([
    [
      'a researcher job reads as that researcher',
      A,
      'researcher',
      { role: 'researcher', userId: A, unrestricted: false },
    ],
    ["a guest's job reads as a guest", null, 'guest', { role: 'guest', userId: null, unrestricted: false }],
    [
      'an unknown role string counts as researcher',
      A,
      'viewer-plus',
      { role: 'researcher', userId: A, unrestricted: false },
    ],
    [
      'a job without a role is the service itself',
      null,
      null,
      { role: 'admin', userId: null, unrestricted: true },
    ],
  ] as const)('%s', (_name, owner, role, expected) => {
    expect(viewerOfJob({ owner_user_id: owner, submitted_role: role })).toEqual(expected);
  });
});
