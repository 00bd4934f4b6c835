import { sha256Hex } from '@svc/domain';
import { throttleCounters } from './login-throttle';

const settings = { loginMaxFailures: 10, loginIpMaxFailures: 100 };
const account = (email: string) => `account:${sha256Hex(email)}`;

describe('throttleCounters', () => {
  it.each([
    {
      name: 'a password sign-in counts against the account and the address',
      input: { flow: 'login' as const, account: 'Ada@Example.org', ipHash: 'h1' },
      expected: [
        { scope: 'account', key: account('ada@example.org'), resource: 'auth_login', limit: 10 },
        { scope: 'address', key: 'ip:h1', resource: 'auth_login', limit: 100 },
      ],
    },
    {
      name: 'the account key ignores case and surrounding spaces',
      input: { flow: 'signup' as const, account: '  ADA@example.ORG ', ipHash: null },
      expected: [{ scope: 'account', key: account('ada@example.org'), resource: 'auth_signup', limit: 10 }],
    },
    {
      name: 'an API-key sign-in has no account counter (a key prefix is public)',
      input: { flow: 'api_key_login' as const, account: null, ipHash: 'h2' },
      expected: [{ scope: 'address', key: 'ip:h2', resource: 'auth_api_key_login', limit: 100 }],
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
