import { PASSWORD_MIN_LENGTH } from '@svc/contracts';
import { AddUserOptions, ParsedArgs, parseAddUserArgs, passwordProblem, usernameFromEmail } from './add-user';
import { UserDatabaseChoice } from './user-database';

describe('parseAddUserArgs', () => {
  const BY_MODE: UserDatabaseChoice = { kind: 'by-mode' };
  const add = (options: AddUserOptions, database: UserDatabaseChoice = BY_MODE): ParsedArgs => ({
    kind: 'add',
    options,
    database,
  });
  const ada: AddUserOptions = {
    email: 'ada@example.org',
    role: 'admin',
    username: 'ada',
    displayName: 'ada',
  };
  const error = (message: string): ParsedArgs => ({ kind: 'error', message });

  it.each<[string, string[], ParsedArgs]>([
    [
      'e-mail and role; username and display name from the address',
      ['--email', 'ada.l@example.org', '--role', 'operator'],
      add({ email: 'ada.l@example.org', role: 'operator', username: 'ada.l', displayName: 'ada.l' }),
    ],
    [
      'every flag, in any order, with --flag=value too',
      ['--display-name=Ada Lovelace', '--role=admin', '--username', 'ada_l', '--email', 'ada@example.org'],
      add({ email: 'ada@example.org', role: 'admin', username: 'ada_l', displayName: 'Ada Lovelace' }),
    ],
    [
      'values are trimmed',
      ['--email', ' bob@example.org ', '--role', ' guest'],
      add({ email: 'bob@example.org', role: 'guest', username: 'bob', displayName: 'bob' }),
    ],
    [
      'characters a username may not hold are dropped from the derived one',
      ['--email', 'o+brien@example.org', '--role', 'researcher'],
      add({ email: 'o+brien@example.org', role: 'researcher', username: 'obrien', displayName: 'obrien' }),
    ],
    [
      '--standalone alone: the data folder of the configuration',
      ['--standalone', '--email', 'ada@example.org', '--role', 'admin'],
      add(ada, { kind: 'standalone', dataDir: null }),
    ],
    [
      '--standalone last',
      ['--email', 'ada@example.org', '--role', 'admin', '--standalone'],
      add(ada, { kind: 'standalone', dataDir: null }),
    ],
    [
      '--standalone DIR',
      ['--email', 'ada@example.org', '--standalone', 'var/other', '--role', 'admin'],
      add(ada, { kind: 'standalone', dataDir: 'var/other' }),
    ],
    [
      '--standalone=DIR',
      ['--standalone=/data/svc', '--email', 'ada@example.org', '--role', 'admin'],
      add(ada, { kind: 'standalone', dataDir: '/data/svc' }),
    ],
    [
      '--standalone= names no folder',
      ['--standalone=', '--email', 'ada@example.org', '--role', 'admin'],
      error('--standalone= needs a folder (or give --standalone alone)'),
    ],
    [
      'repeated --standalone',
      ['--standalone', '--standalone', 'x', '--email', 'ada@example.org', '--role', 'admin'],
      error('--standalone is given twice'),
    ],
    ['--help', ['--email', 'x@example.org', '--help'], { kind: 'help' }],
    ['-h', ['-h'], { kind: 'help' }],
    ['nothing', [], error('--email is required')],
    ['no role', ['--email', 'ada@example.org'], error('--role is required')],
    ['empty e-mail', ['--email=', '--role', 'admin'], error('--email is required')],
    ['not an e-mail', ['--email', 'ada', '--role', 'admin'], error("'ada' is not an e-mail address")],
    [
      'no domain dot',
      ['--email', 'ada@localhost', '--role', 'admin'],
      error("'ada@localhost' is not an e-mail address"),
    ],
    [
      'unknown role',
      ['--email', 'ada@example.org', '--role', 'root'],
      error("unknown role 'root' (expected one of guest, researcher, operator, admin)"),
    ],
    [
      'role names are exact',
      ['--email', 'ada@example.org', '--role', 'Admin'],
      error("unknown role 'Admin' (expected one of guest, researcher, operator, admin)"),
    ],
    ['missing value at the end', ['--email', 'ada@example.org', '--role'], error('--role needs a value')],
    ['a flag where a value belongs', ['--email', '--role', 'admin'], error('--email needs a value')],
    [
      'unknown flag',
      ['--email', 'ada@example.org', '--role', 'admin', '--password', 'x'],
      error("unknown argument '--password'"),
    ],
    ['positional argument', ['ada@example.org'], error("unknown argument 'ada@example.org'")],
    [
      'repeated flag',
      ['--email', 'a@example.org', '--email', 'b@example.org', '--role', 'admin'],
      error('--email is given twice'),
    ],
    [
      'invalid username',
      ['--email', 'ada@example.org', '--role', 'admin', '--username', 'a b'],
      error("invalid username 'a b': 3-40 letters, digits, dot, dash or underscore"),
    ],
    [
      'too short a username',
      ['--email', 'ada@example.org', '--role', 'admin', '--username', 'ab'],
      error("invalid username 'ab': 3-40 letters, digits, dot, dash or underscore"),
    ],
    [
      'no usable username in the address',
      ['--email', 'jo@example.org', '--role', 'admin'],
      error(
        "cannot derive a username from 'jo@example.org'; pass --username (3-40 letters, digits, dot, dash or underscore)",
      ),
    ],
    [
      'empty display name',
      ['--email', 'ada@example.org', '--role', 'admin', '--display-name', ' '],
      error('--display-name must be 1-200 characters'),
    ],
  ])('%s', (_name, argv, expected) => {
    expect(parseAddUserArgs(argv)).toEqual(expected);
  });
});

describe('usernameFromEmail', () => {
  it.each([
    ['ada@example.org', 'ada'],
    ['first.last-2@example.org', 'first.last-2'],
    ['"quoted@local"@example.org', 'quotedlocal'],
    [`${'x'.repeat(60)}@example.org`, 'x'.repeat(40)],
  ])('%s -> %s', (email, username) => {
    expect(usernameFromEmail(email)).toBe(username);
  });
});

describe('passwordProblem', () => {
  const ok = 'p'.repeat(PASSWORD_MIN_LENGTH);
  it.each<[string, string, string | undefined, string | null]>([
    ['long enough, confirmed', ok, ok, null],
    ['long enough, piped (no confirmation)', ok, undefined, null],
    ['the longest allowed', 'p'.repeat(1000), undefined, null],
    ['confirmation differs', ok, `${ok}x`, 'the two passwords differ'],
    [
      'too short',
      'p'.repeat(PASSWORD_MIN_LENGTH - 1),
      undefined,
      `the password must have at least ${PASSWORD_MIN_LENGTH} characters`,
    ],
    ['empty', '', '', `the password must have at least ${PASSWORD_MIN_LENGTH} characters`],
    ['too long', 'p'.repeat(1001), undefined, 'the password must have at most 1000 characters'],
  ])('%s', (_name, password, confirmation, expected) => {
    expect(passwordProblem(password, confirmation)).toBe(expected);
  });
});
