import { sha256Hex } from '@svc/domain';
import { loginDelaySeconds, signupCounter, throttleCounters } from './login-throttle';

const settings = { loginMaxFailures: 10, loginIpMaxFailures: 100 };
const account = (email: string) => `account:${sha256Hex(email)}`;

describe('throttleCounters', () => {
  it.each([
    {
      name: 'a password sign-in counts against the account from this address, and against the address',
      input: { flow: 'login' as const, account: 'Ada@Example.org', ipHash: 'h1' },
      expected: [
        {
          scope: 'account_address',
          key: `${account('ada@example.org')}|ip:h1`,
          resource: 'auth_login',
          limit: 10,
          progressive: true,
        },
        { scope: 'address', key: 'ip:h1', resource: 'auth_login', limit: 100, progressive: false },
      ],
    },
    {
      name: 'a password sign-in without an address still counts per account',
      input: { flow: 'login' as const, account: 'ada@example.org', ipHash: null },
      expected: [
        {
          scope: 'account_address',
          key: `${account('ada@example.org')}|ip:unknown`,
          resource: 'auth_login',
          limit: 10,
          progressive: true,
        },
      ],
    },
    {
      name: 'the account key ignores case and surrounding spaces; a refused sign-up counts per account',
      input: { flow: 'signup' as const, account: '  ADA@example.ORG ', ipHash: null },
      expected: [
        {
          scope: 'account',
          key: account('ada@example.org'),
          resource: 'auth_signup',
          limit: 10,
          progressive: false,
        },
      ],
    },
    {
      name: 'an e-mail request counts per e-mail (each may fill an inbox) and per address',
      input: { flow: 'magic_link_request' as const, account: 'ada@example.org', ipHash: 'h3' },
      expected: [
        {
          scope: 'account',
          key: account('ada@example.org'),
          resource: 'auth_magic_link_request',
          limit: 10,
          progressive: false,
        },
        {
          scope: 'address',
          key: 'ip:h3',
          resource: 'auth_magic_link_request',
          limit: 100,
          progressive: false,
        },
      ],
    },
    {
      name: 'an API-key sign-in has no account counter (a key prefix is public)',
      input: { flow: 'api_key_login' as const, account: null, ipHash: 'h2' },
      expected: [
        { scope: 'address', key: 'ip:h2', resource: 'auth_api_key_login', limit: 100, progressive: false },
      ],
    },
    {
      name: 'a wrong current password counts per account (its id: only its sessions can spend it) and per address',
      input: { flow: 'password_change' as const, account: 'user-id-1', ipHash: 'h4' },
      expected: [
        {
          scope: 'account',
          key: account('user-id-1'),
          resource: 'auth_password_change',
          limit: 10,
          progressive: false,
        },
        { scope: 'address', key: 'ip:h4', resource: 'auth_password_change', limit: 100, progressive: false },
      ],
    },
    {
      name: 'nothing to count without an account or an address',
      input: { flow: 'password_reset_consume' as const, account: '', ipHash: '' },
      expected: [],
    },
  ])('$name', ({ input, expected }) => {
    expect(throttleCounters(input, settings)).toEqual(expected);
  });
});

describe('loginDelaySeconds', () => {
  const delays = { loginMaxFailures: 10, loginDelaySeconds: 30, loginDelayMaxSeconds: 900 };

  it.each([
    [0, 0],
    [9, 0],
    [10, 30],
    [11, 60],
    [12, 120],
    [14, 480],
    [15, 900],
    [40, 900],
    [10_000, 900],
  ])('after %i failures the pair waits %i s', (failures, seconds) => {
    expect(loginDelaySeconds(failures, delays)).toBe(seconds);
  });

  it('never waits longer than the cap, even when the first delay is longer', () => {
    expect(
      loginDelaySeconds(3, { loginMaxFailures: 3, loginDelaySeconds: 60, loginDelayMaxSeconds: 45 }),
    ).toBe(45);
  });
});

describe('signupCounter', () => {
  it('counts accepted sign-ups per address hash', () => {
    expect(signupCounter('h1', { signupAddressLimit: 5 })).toEqual({
      scope: 'accepted_signups',
      key: 'ip:h1',
      resource: 'auth_signup_accepted',
      limit: 5,
      progressive: false,
    });
  });

  it.each([null, ''])('has nothing to count without an address (%p)', (ipHash) => {
    expect(signupCounter(ipHash, { signupAddressLimit: 5 })).toBeNull();
  });
});
