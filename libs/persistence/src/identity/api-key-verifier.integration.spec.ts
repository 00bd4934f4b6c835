import { randomUUID } from 'node:crypto';
import { Role, UserStatus, UserView } from '@svc/contracts';
import { MintedApiKey, mintApiKey, sha256Hex } from '@svc/domain';
import { DataSource } from 'typeorm';
import { apiKeyLookup, checkApiKey } from './api-key-verifier';
import { ApiKeyRepository } from './api-key.repository';
import { UserRepository } from './user.repository';
import { useRunDatabase } from '../../testing/repository-test-support';
import { insertUser } from '../../testing/repository-fixtures';

// checkApiKey over the real ApiKeyRepository look-up (apiKeyLookup): a raw key is found by its prefix
// and hash, and refused as malformed, unknown, revoked or of an inactive owner; its role is bounded.

let db: DataSource;
let keys: ApiKeyRepository;
let users: UserRepository;

useRunDatabase((opened) => {
  db = opened;
  keys = new ApiKeyRepository(db);
  users = new UserRepository(db);
});

function user(role: Role, status: UserStatus = 'active'): Promise<UserView> {
  return insertUser(db, 'verify', { role, status });
}

/** Mints a key (or stores the given one) for the user; returns the raw key and the stored id. */
async function keyFor(
  owner: UserView,
  role: Role,
  minted: MintedApiKey = mintApiKey(),
): Promise<MintedApiKey & { id: string }> {
  const view = await keys.create({
    userId: owner.id,
    name: 'test',
    prefix: minted.prefix,
    keyHash: minted.hash,
    role,
  });
  return { ...minted, id: view.id };
}

const check = (raw: string) => checkApiKey(raw, apiKeyLookup(keys));

describe('checkApiKey with apiKeyLookup', () => {
  it('accepts a stored key and names its key, owner, role and prefix', async () => {
    const owner = await user('operator');
    const key = await keyFor(owner, 'operator');

    expect(await check(key.raw)).toEqual({
      valid: true,
      keyId: key.id,
      userId: owner.id,
      role: 'operator',
      prefix: key.prefix,
    });
  });

  it('ignores whitespace around the key', async () => {
    const owner = await user('researcher');
    const key = await keyFor(owner, 'researcher');
    expect(await check(`  ${key.raw}\n`)).toMatchObject({ valid: true, keyId: key.id });
  });

  it("bounds the key's role by its owner's current role", async () => {
    const owner = await user('admin');
    const narrow = await keyFor(owner, 'guest');
    const wide = await keyFor(owner, 'admin');
    expect(await check(narrow.raw)).toMatchObject({ valid: true, role: 'guest' });
    expect(await check(wide.raw)).toMatchObject({ valid: true, role: 'admin' });

    await users.update(owner.id, { role: 'researcher' });
    expect(await check(wide.raw)).toMatchObject({ valid: true, role: 'researcher' });
    expect(await check(narrow.raw)).toMatchObject({ valid: true, role: 'guest' });
  });

  it('refuses a key too short or too long as malformed', async () => {
    expect(await check('abcdefgh1234567')).toEqual({ valid: false, reason: 'malformed' });
    expect(await check(`   ${'a'.repeat(15)}   `)).toEqual({ valid: false, reason: 'malformed' });
    expect(await check('a'.repeat(201))).toEqual({ valid: false, reason: 'malformed' });
  });

  it('refuses a key whose prefix is stored but whose hash is not, and a key never stored, as unknown', async () => {
    const owner = await user('researcher');
    const key = await keyFor(owner, 'researcher');
    const forged = `${key.prefix}${'x'.repeat(key.raw.length - key.prefix.length)}`;
    expect(await check(forged)).toEqual({ valid: false, reason: 'unknown' });
    expect(await check(mintApiKey().raw)).toEqual({ valid: false, reason: 'unknown' });
  });

  it('tells apart keys sharing a prefix by their hash', async () => {
    const alice = await user('researcher');
    const bob = await user('operator');
    const prefix = mintApiKey().prefix;
    const rawA = `${prefix}${randomUUID()}`;
    const rawB = `${prefix}${randomUUID()}`;
    const a = await keyFor(alice, 'researcher', { raw: rawA, prefix, hash: sha256Hex(rawA) });
    const b = await keyFor(bob, 'operator', { raw: rawB, prefix, hash: sha256Hex(rawB) });

    expect(await check(rawA)).toMatchObject({
      valid: true,
      keyId: a.id,
      userId: alice.id,
      role: 'researcher',
    });
    expect(await check(rawB)).toMatchObject({ valid: true, keyId: b.id, userId: bob.id, role: 'operator' });
  });

  it('refuses a revoked key', async () => {
    const owner = await user('researcher');
    const key = await keyFor(owner, 'researcher');
    await keys.revoke(key.id);
    expect(await check(key.raw)).toEqual({ valid: false, reason: 'revoked' });
  });

  it('refuses the key of an owner who is pending or deactivated', async () => {
    const pending = await user('researcher', 'pending');
    const pendingKey = await keyFor(pending, 'researcher');
    expect(await check(pendingKey.raw)).toEqual({ valid: false, reason: 'owner_inactive' });

    const active = await user('researcher');
    const key = await keyFor(active, 'researcher');
    expect(await check(key.raw)).toMatchObject({ valid: true });
    await users.update(active.id, { status: 'deactivated' });
    expect(await check(key.raw)).toEqual({ valid: false, reason: 'owner_inactive' });
  });
});
