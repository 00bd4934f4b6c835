import { randomBytes, randomUUID } from 'node:crypto';
import { Role, UserView } from '@svc/contracts';
import { DataSource } from 'typeorm';
import { ApiKeyRepository } from './api-key.repository';
import { NewUser, UserRepository } from './user.repository';
import { domainError, useRunDatabase } from '../../testing/repository-test-support';
import { insertUser } from '../../testing/repository-fixtures';

// ApiKeyRepository against the run's PostgreSQL: keys are stored by hash and read back as views
// (never the hash), listed per owner, counted while active, looked up by prefix or id with their
// owner's role and status, revoked once and touched.

let db: DataSource;
let keys: ApiKeyRepository;
let users: UserRepository;

const ISO_MICROS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

useRunDatabase((opened) => {
  db = opened;
  keys = new ApiKeyRepository(db);
  users = new UserRepository(db);
});

const user = (extra: Partial<NewUser> = {}): Promise<UserView> => insertUser(db, 'key', extra);

/** An 8-character prefix no other test uses. */
const newPrefix = (): string => randomBytes(4).toString('hex');
const newHash = (): string => randomBytes(32).toString('hex');

function mint(userId: string, extra: { prefix?: string; role?: Role; name?: string; keyHash?: string } = {}) {
  return keys.create({
    userId,
    name: extra.name ?? 'laptop',
    prefix: extra.prefix ?? newPrefix(),
    keyHash: extra.keyHash ?? newHash(),
    role: extra.role ?? 'researcher',
  });
}

describe('ApiKeyRepository', () => {
  it('create returns the key view without its hash', async () => {
    const owner = await user();
    const prefix = newPrefix();
    const view = await mint(owner.id, { prefix, name: 'ci runner', role: 'guest' });

    expect(view).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      user_id: owner.id,
      prefix,
      name: 'ci runner',
      created_at: expect.stringMatching(ISO_MICROS),
      role: 'guest',
      revoked_at: null,
      last_used_at: null,
    });
    expect(view).not.toHaveProperty('key_hash');
  });

  it("list(userId) gives that user's keys newest first; list() gives everyone's", async () => {
    const owner = await user();
    const other = await user();
    const first = await mint(owner.id, { name: 'first' });
    const theirs = await mint(other.id);
    const second = await mint(owner.id, { name: 'second' });

    expect(await keys.list(owner.id)).toEqual([second, first]);
    expect(await keys.list(other.id)).toEqual([theirs]);
    expect(await keys.list(randomUUID())).toEqual([]);
    const everyone = (await keys.list()).filter((k) => [first.id, second.id, theirs.id].includes(k.id));
    expect(everyone.map((k) => k.id)).toEqual([second.id, theirs.id, first.id]);
  });

  it('countActive counts the keys of the user that are not revoked', async () => {
    const owner = await user();
    const other = await user();
    expect(await keys.countActive(owner.id)).toBe(0);
    const a = await mint(owner.id);
    await mint(owner.id);
    await mint(other.id);
    expect(await keys.countActive(owner.id)).toBe(2);

    await keys.revoke(a.id);
    expect(await keys.countActive(owner.id)).toBe(1);
    expect(await keys.countActive(other.id)).toBe(1);
  });

  it("candidates gives every key sharing a prefix, with its hash, revocation and owner's role and status", async () => {
    const prefix = newPrefix();
    const researcher = await user({ role: 'researcher' });
    const operator = await user({ role: 'operator', status: 'deactivated' });
    const hashA = newHash();
    const hashB = newHash();
    const a = await mint(researcher.id, { prefix, keyHash: hashA, role: 'researcher' });
    const b = await mint(operator.id, { prefix, keyHash: hashB, role: 'guest' });
    await mint(researcher.id); // another prefix
    await keys.revoke(b.id);

    const found = await keys.candidates(prefix);
    expect(found.sort((x, y) => (x.key_hash < y.key_hash ? -1 : 1))).toEqual(
      [
        {
          id: a.id,
          user_id: researcher.id,
          key_hash: hashA,
          role: 'researcher',
          revoked: false,
          owner_role: 'researcher',
          owner_status: 'active',
        },
        {
          id: b.id,
          user_id: operator.id,
          key_hash: hashB,
          role: 'guest',
          revoked: true,
          owner_role: 'operator',
          owner_status: 'deactivated',
        },
      ].sort((x, y) => (x.key_hash < y.key_hash ? -1 : 1)),
    );
    expect(await keys.candidates(newPrefix())).toEqual([]);
  });

  it("candidateById gives the one key in the candidate shape, following its owner's changes", async () => {
    const owner = await user({ role: 'operator' });
    const hash = newHash();
    const key = await mint(owner.id, { keyHash: hash, role: 'operator' });

    expect(await keys.candidateById(key.id)).toEqual([
      {
        id: key.id,
        user_id: owner.id,
        key_hash: hash,
        role: 'operator',
        revoked: false,
        owner_role: 'operator',
        owner_status: 'active',
      },
    ]);
    await users.update(owner.id, { role: 'researcher', status: 'deactivated' });
    expect(await keys.candidateById(key.id)).toMatchObject([
      { owner_role: 'researcher', owner_status: 'deactivated' },
    ]);
    expect(await keys.candidateById(randomUUID())).toEqual([]);
  });

  it('revoke stamps revoked_at once and returns the view; again it keeps the first time', async () => {
    const owner = await user();
    const key = await mint(owner.id);

    const revoked = await keys.revoke(key.id);
    expect(revoked).toEqual({ ...key, revoked_at: expect.stringMatching(ISO_MICROS) });
    expect(await keys.revoke(key.id)).toEqual(revoked);
    expect(await keys.list(owner.id)).toEqual([revoked]);
    expect((await keys.candidateById(key.id))[0]?.revoked).toBe(true);
  });

  it('revoke fails not_found for an unknown id', async () => {
    const error = await domainError(keys.revoke(randomUUID()));
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('API key not found');
  });

  it('touch stamps last_used_at of that key only', async () => {
    const owner = await user();
    const used = await mint(owner.id);
    const idle = await mint(owner.id);

    await keys.touch(used.id);
    const listed = await keys.list(owner.id);
    expect(listed).toEqual([idle, { ...used, last_used_at: expect.stringMatching(ISO_MICROS) }]);
    await keys.touch(randomUUID()); // unknown: nothing happens
  });

  it("a deleted user's keys go with them", async () => {
    const owner = await user();
    const key = await mint(owner.id);
    await users.delete(owner.id);
    expect(await keys.candidateById(key.id)).toEqual([]);
    expect(await keys.list(owner.id)).toEqual([]);
  });
});
