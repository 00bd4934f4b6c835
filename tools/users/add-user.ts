import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { isEmail } from 'class-validator';
import { DomainError, PASSWORD_MIN_LENGTH, Role, ROLES, UserView } from '@svc/contracts';
import { UserRepository } from '@svc/persistence';
import { ConfigError, loadConfig, PasswordHasher } from '@svc/platform';
import { DataFolderInUseError } from '../standalone/data-lock';
import { readSetting } from '../start/run-mode';
import { createActiveUser } from './create-active-user';
import {
  openUserDatabase,
  resolveUserDatabase,
  UserDatabaseChoice,
  UserDatabaseError,
} from './user-database';

/**
 * `npm run user:add -- --email X --role operator [--username U] [--display-name D] [--standalone [DIR]]`:
 * creates an active account without the sign-up and approval round trip, in the database of the mode
 * `npm start` would pick, or in a standalone data folder. The password is asked twice on the terminal
 * with echo off, or read as one line from standard input when that is not a terminal.
 *
 * Exit codes: 0 created, 1 failed (e.g. the e-mail is already registered), 2 invalid arguments.
 */

export const USAGE = `usage: npm run user:add -- --email ADDRESS --role ROLE [--username NAME] [--display-name TEXT] [--standalone [DIR]]

  --email          the account's e-mail address (also its sign-in name)
  --role           one of ${ROLES.join(', ')}
  --username       3-40 letters, digits, dot, dash or underscore; default: from the e-mail address
  --display-name   default: the username
  --standalone     add the account to the standalone data folder DIR (default: SVC_STANDALONE_DATA_DIR,
                   else var/standalone), also while the standalone service runs; without this flag the
                   mode npm start would pick decides (SVC_MODE, SVC_DB_URL, ports 5432 and 5672)

The password is prompted for twice with echo off; when standard input is not a terminal, its first
line is the password (for example: printf '%s\\n' "$PASSWORD" | npm run user:add -- ...).`;

const PASSWORD_MAX_LENGTH = 1000;
const EMAIL_MAX_LENGTH = 320;
const DISPLAY_NAME_MAX_LENGTH = 200;
const USERNAME_RE = /^[A-Za-z0-9_.-]{3,40}$/;
const FLAGS = {
  '--email': 'email',
  '--role': 'role',
  '--username': 'username',
  '--display-name': 'displayName',
} as const;

export interface AddUserOptions {
  email: string;
  role: Role;
  username: string;
  displayName: string;
}

export type ParsedArgs =
  | { kind: 'help' }
  | { kind: 'add'; options: AddUserOptions; database: UserDatabaseChoice }
  | { kind: 'error'; message: string };

/** Parses and validates the command line (`--flag value` or `--flag=value`); no I/O. */
export function parseAddUserArgs(argv: readonly string[]): ParsedArgs {
  const given: Partial<Record<(typeof FLAGS)[keyof typeof FLAGS], string>> = {};
  // undefined: not given; null: given without a folder.
  let standalone: string | null | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (flag === '--standalone') {
      if (standalone !== undefined) return { kind: 'error', message: '--standalone is given twice' };
      // The folder is optional: a following flag is not one.
      const next = argv[i + 1];
      const dir =
        eq > 0 ? arg.slice(eq + 1).trim() : next !== undefined && !next.startsWith('-') ? next.trim() : null;
      if (dir === '')
        return { kind: 'error', message: '--standalone= needs a folder (or give --standalone alone)' };
      if (eq < 0 && dir !== null) i++;
      standalone = dir;
      continue;
    }
    if (!(flag in FLAGS)) return { kind: 'error', message: `unknown argument '${arg}'` };
    const key = FLAGS[flag as keyof typeof FLAGS];
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith('--')))
      return { kind: 'error', message: `${flag} needs a value` };
    if (given[key] !== undefined) return { kind: 'error', message: `${flag} is given twice` };
    given[key] = value.trim();
  }

  const email = given.email;
  if (email === undefined || email === '') return { kind: 'error', message: '--email is required' };
  if (email.length > EMAIL_MAX_LENGTH || !isEmail(email))
    return { kind: 'error', message: `'${email}' is not an e-mail address` };
  const role = given.role;
  if (role === undefined || role === '') return { kind: 'error', message: '--role is required' };
  if (!(ROLES as readonly string[]).includes(role)) {
    return { kind: 'error', message: `unknown role '${role}' (expected one of ${ROLES.join(', ')})` };
  }
  const username = given.username ?? usernameFromEmail(email);
  if (!USERNAME_RE.test(username)) {
    return {
      kind: 'error',
      message:
        given.username === undefined
          ? `cannot derive a username from '${email}'; pass --username (3-40 letters, digits, dot, dash or underscore)`
          : `invalid username '${username}': 3-40 letters, digits, dot, dash or underscore`,
    };
  }
  const displayName = given.displayName ?? username;
  if (displayName.length < 1 || displayName.length > DISPLAY_NAME_MAX_LENGTH) {
    return { kind: 'error', message: `--display-name must be 1-${DISPLAY_NAME_MAX_LENGTH} characters` };
  }
  return {
    kind: 'add',
    options: { email, role: role as Role, username, displayName },
    database: standalone === undefined ? { kind: 'by-mode' } : { kind: 'standalone', dataDir: standalone },
  };
}

/** The part of the address before the `@`, with characters a username may not hold removed. */
export function usernameFromEmail(email: string): string {
  return email
    .slice(0, email.lastIndexOf('@'))
    .replace(/[^A-Za-z0-9_.-]/g, '')
    .slice(0, 40);
}

/** Null when acceptable, otherwise why not. `confirmation` is absent when the password came from a pipe. */
export function passwordProblem(password: string, confirmation?: string): string | null {
  if (confirmation !== undefined && password !== confirmation) return 'the two passwords differ';
  if (password.length < PASSWORD_MIN_LENGTH)
    return `the password must have at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `the password must have at most ${PASSWORD_MAX_LENGTH} characters`;
  return null;
}

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** One line typed on the terminal without echo; the prompt goes to stderr so stdout stays JSON. */
function promptHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
    const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
    let answered = false;
    process.stderr.write(prompt);
    rl.on('SIGINT', () => rl.close());
    rl.once('close', () => {
      process.stderr.write('\n');
      if (!answered) reject(new CliError('cancelled', 1));
    });
    rl.question('', (answer) => {
      answered = true;
      resolve(answer);
      rl.close();
    });
  });
}

/** The first line of a piped standard input. */
function readLine(): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: process.stdin, terminal: false });
    let line: string | undefined;
    rl.once('line', (text) => {
      line = text;
      rl.close();
    });
    rl.once('close', () =>
      line === undefined ? reject(new CliError('no password on standard input', 1)) : resolve(line),
    );
  });
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const password = await readLine();
    const problem = passwordProblem(password);
    if (problem !== null) throw new CliError(problem, 1);
    return password;
  }
  const password = await promptHidden('Password: ');
  const problem = passwordProblem(password, await promptHidden('Repeat the password: '));
  if (problem !== null) throw new CliError(problem, 1);
  return password;
}

async function addUser(options: AddUserOptions, choice: UserDatabaseChoice): Promise<UserView> {
  const target = await resolveUserDatabase({
    choice,
    setting: (name) => readSetting(name, process.env, join(process.cwd(), '.env')),
    standaloneDataDir: () =>
      loadConfig({ env: { ...process.env, SVC_MODE: 'standalone' } }).standaloneDataDir,
  });
  if (target.mode === 'error') throw new CliError(target.message, 1);
  const { db, description, close } = await openUserDatabase(target);
  if (description !== null) process.stderr.write(`user:add: ${description}\n`);
  try {
    // Fail before asking for a password when the address is taken (the unique index still decides).
    if ((await new UserRepository(db).findByEmail(options.email)) !== null) {
      throw new DomainError('conflict', 'that e-mail address is already registered');
    }
    const password = await readPassword();
    const passwordHash = await new PasswordHasher().hash(password);
    return await createActiveUser(db, options, passwordHash, { via: 'cli', role: options.role });
  } finally {
    await close();
  }
}

export async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseAddUserArgs(argv);
  if (parsed.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`user:add: ${parsed.message}\n\n${USAGE}\n`);
    return 2;
  }
  try {
    const user = await addUser(parsed.options, parsed.database);
    const { id, email, username, role, status } = user;
    process.stdout.write(`${JSON.stringify({ id, email, username, role, status })}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`user:add: ${describeFailure(error, parsed.options)}\n`);
    return error instanceof CliError ? error.exitCode : 1;
  }
}

function describeFailure(error: unknown, options: AddUserOptions): string {
  if (error instanceof DomainError && error.code === 'conflict') {
    return error.message.includes('username')
      ? `the username '${options.username}' is taken; choose another with --username`
      : `${options.email} is already registered`;
  }
  if (
    error instanceof ConfigError ||
    error instanceof CliError ||
    error instanceof UserDatabaseError ||
    error instanceof DataFolderInUseError
  )
    return error.message;
  return String((error as Error).stack ?? error);
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`user:add: ${String((error as Error).stack ?? error)}\n`);
      process.exit(1);
    },
  );
}
