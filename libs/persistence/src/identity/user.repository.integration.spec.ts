import { randomBytes, randomUUID } from 'node:crypto';
import { Role, UserStatus } from '@svc/contracts';
import { DataSource } from 'typeorm';
import { SessionRepository } from './session.repository';
import { NewUser, UserRepository } from './user.repository';
import { domainError, useRunDatabase, useOwnDatabase } from '../../testing/repository-test-support';

// UserRepository against the run's PostgreSQL: accounts are created with unique e-mail addresses and
// usernames (case-insensitively), read back by id and e-mail, listed, changed, stamped and deleted.

let db: DataSource;
let users: UserRepository;

/** A timestamp as the repositories print it: ISO 8601 UTC with microseconds. */
const ISO_MICROS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

function newUser(extra: Partial<NewUser> = {}): NewUser {
  const tag = randomUUID();
  return {
    email: `user-${tag}@example.org`,
    username: `user-${tag}`,
    displayName: 'A. Researcher',
    passwordHash: `hash-${tag}`,
    role: 'researcher',
    status: 'pending',
    intendedUse: null,
    ...extra,
  };
}

useRunDatabase((opened) => {
  db = opened;
  users = new UserRepository(db);
});

describe('UserRepository', () => {
  it('create returns the account without its password hash, and findById / getById read it back', async () => {
    const input = newUser({ intendedUse: 'GO annotation of bacterial proteomes', role: 'operator' });
    const created = await users.create(input);

    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: input.email,
      username: input.username,
      display_name: 'A. Researcher',
      role: 'operator',
      status: 'pending',
      intended_use: 'GO annotation of bacterial proteomes',
      created_at: expect.stringMatching(ISO_MICROS),
      last_login_at: null,
    });
    expect(created).not.toHaveProperty('password_hash');
    expect(await users.findById(created.id)).toEqual(created);
    expect(await users.getById(created.id)).toEqual(created);
  });

  it('findById is null and getById fails not_found for an unknown id', async () => {
    const missing = randomUUID();
    expect(await users.findById(missing)).toBeNull();
    const error = await domainError(users.getById(missing));
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('User not found');
  });

  it('create refuses an e-mail address already registered, whatever its case, and writes nothing', async () => {
    const first = await users.create(newUser());
    const again = newUser({ email: first.email.toUpperCase() });

    const error = await domainError(users.create(again));
    expect(error.code).toBe('conflict');
    expect(error.message).toBe('that e-mail address is already registered');
    const [row] = await db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM app_user WHERE username = $1`,
      [again.username],
    );
    expect(row!.n).toBe(0);
  });

  it('create refuses a username already taken, whatever its case', async () => {
    const first = await users.create(newUser());
    const again = newUser({ username: first.username.toUpperCase() });

    const error = await domainError(users.create(again));
    expect(error.code).toBe('conflict');
    expect(error.message).toBe('that username is taken');
    expect(await users.findByEmail(again.email)).toBeNull();
  });

  it('findByEmail and findCredentialsByEmail match the address case-insensitively; only the latter gives the hash', async () => {
    const input = newUser({ passwordHash: '$argon2id$v=19$stored' });
    const created = await users.create(input);
    const shouted = input.email.toUpperCase();

    expect(await users.findByEmail(shouted)).toEqual(created);
    expect(await users.findCredentialsByEmail(shouted)).toEqual({
      ...created,
      password_hash: '$argon2id$v=19$stored',
    });
    const unknown = `nobody-${randomUUID()}@example.org`;
    expect(await users.findByEmail(unknown)).toBeNull();
    expect(await users.findCredentialsByEmail(unknown)).toBeNull();
  });

  it('findCredentialsByEmail gives a null hash for an account without a password', async () => {
    const created = await users.create(newUser({ passwordHash: null }));
    expect(await users.findCredentialsByEmail(created.email)).toMatchObject({
      id: created.id,
      password_hash: null,
    });
  });

  it('findCredentialsById gives the account with its hash, and null for an unknown id', async () => {
    const created = await users.create(newUser({ passwordHash: '$argon2id$v=19$by-id' }));
    expect(await users.findCredentialsById(created.id)).toEqual({
      ...created,
      password_hash: '$argon2id$v=19$by-id',
    });
    expect(await users.findCredentialsById(randomUUID())).toBeNull();
  });

  it('replacePasswordHash replaces the hash only while it is the expected one', async () => {
    const created = await users.create(newUser({ passwordHash: 'checked-hash' }));
    const hashOf = async (): Promise<string | null | undefined> =>
      (await users.findCredentialsById(created.id))?.password_hash;

    expect(await users.replacePasswordHash(created.id, { expected: 'stale-hash', next: 'lost-hash' })).toBe(
      false,
    );
    expect(await hashOf()).toBe('checked-hash');
    expect(await users.replacePasswordHash(created.id, { expected: 'checked-hash', next: 'new-hash' })).toBe(
      true,
    );
    expect(await hashOf()).toBe('new-hash');
    expect(await users.replacePasswordHash(created.id, { expected: 'checked-hash', next: 'again' })).toBe(
      false,
    );
    expect(await hashOf()).toBe('new-hash');
    expect(await users.replacePasswordHash(randomUUID(), { expected: 'new-hash', next: 'x' })).toBe(false);
  });

  it('list is newest first, and filtered by status keeps only that status', async () => {
    const a = await users.create(newUser({ status: 'pending' }));
    const b = await users.create(newUser({ status: 'active' }));
    const c = await users.create(newUser({ status: 'pending' }));
    const mine = new Set([a.id, b.id, c.id]);
    const ours = (list: { id: string }[]): string[] => list.filter((u) => mine.has(u.id)).map((u) => u.id);

    expect(ours(await users.list())).toEqual([c.id, b.id, a.id]);
    const pending = await users.list('pending');
    expect(ours(pending)).toEqual([c.id, a.id]);
    expect(pending.every((u) => u.status === 'pending')).toBe(true);
    expect(ours(await users.list('active'))).toEqual([b.id]);
    expect(ours(await users.list('deactivated'))).toEqual([]);
  });

  it('update changes only the given fields, the password hash included', async () => {
    const created = await users.create(newUser({ passwordHash: 'old-hash' }));

    const approved = await users.update(created.id, { status: 'active' });
    expect(approved).toEqual({ ...created, status: 'active' });

    const promoted = await users.update(created.id, { role: 'admin' });
    expect(promoted).toEqual({ ...created, status: 'active', role: 'admin' });
    expect((await users.findCredentialsByEmail(created.email))?.password_hash).toBe('old-hash');

    const rehashed = await users.update(created.id, { passwordHash: 'new-hash' });
    expect(rehashed).toEqual(promoted);
    expect((await users.findCredentialsByEmail(created.email))?.password_hash).toBe('new-hash');

    expect(await users.update(created.id, {})).toEqual(promoted);
  });

  it('update fails not_found for an unknown id', async () => {
    const error = await domainError(users.update(randomUUID(), { status: 'active' }));
    expect(error.code).toBe('not_found');
  });

  it('recordLogin stamps last_login_at and leaves the rest', async () => {
    const created = await users.create(newUser({ status: 'active' }));
    await users.recordLogin(created.id);
    const first = await users.getById(created.id);
    expect(first).toEqual({ ...created, last_login_at: expect.stringMatching(ISO_MICROS) });

    await users.recordLogin(created.id);
    const second = await users.getById(created.id);
    expect(second.last_login_at! > first.last_login_at!).toBe(true);
    await users.recordLogin(randomUUID()); // an unknown id changes nothing and does not fail
  });

  it('delete removes the account once, and its sessions with it', async () => {
    const created = await users.create(newUser({ status: 'active' }));
    const sessions = new SessionRepository(db);
    const jti = randomUUID();
    await sessions.create({
      userId: created.id,
      jti,
      tokenHash: randomBytes(32).toString('hex'),
      expiresAt: new Date(Date.now() + 3_600_000),
      userAgent: null,
      clientIpHash: null,
    });

    expect(await users.delete(created.id)).toBe(true);
    expect(await users.findById(created.id)).toBeNull();
    expect(await sessions.state(jti)).toBeNull();
    expect(await users.delete(created.id)).toBe(false);
    // The address and the username are free again.
    const again = await users.create(newUser({ email: created.email, username: created.username }));
    expect(again.id).not.toBe(created.id);
  });
});

describe('UserRepository.countAdmins (a database of its own: it counts every account)', () => {
  let own: DataSource;
  let repository: UserRepository;

  useOwnDatabase('users', (opened) => {
    own = opened;
    repository = new UserRepository(own);
  });

  it('counts the active administrators only', async () => {
    expect(await repository.countAdmins()).toBe(0);
    const make = (role: Role, status: UserStatus) => repository.create(newUser({ role, status }));

    const admin = await make('admin', 'active');
    await make('admin', 'pending');
    await make('admin', 'deactivated');
    await make('operator', 'active');
    expect(await repository.countAdmins()).toBe(1);

    const second = await make('admin', 'active');
    expect(await repository.countAdmins()).toBe(2);

    await repository.update(admin.id, { status: 'deactivated' });
    await repository.update(second.id, { role: 'operator' });
    expect(await repository.countAdmins()).toBe(0);
  });
});
