import { randomBytes, randomUUID } from 'node:crypto';
import { UserView } from '@svc/contracts';
import { DataSource } from 'typeorm';
import { SessionRepository } from './session.repository';
import { NewUser, UserRepository } from './user.repository';
import { useRunDatabase } from '../../testing/repository-test-support';
import { insertUser } from '../../testing/repository-fixtures';

// SessionRepository against the run's PostgreSQL: a cookie session's state (revoked, expired, its
// user's status and role) as the credential gate reads it, touching, and revoking one or all.

let db: DataSource;
let sessions: SessionRepository;
let users: UserRepository;

useRunDatabase((opened) => {
  db = opened;
  sessions = new SessionRepository(db);
  users = new UserRepository(db);
});

const user = (extra: Partial<NewUser> = {}): Promise<UserView> => insertUser(db, 'session', extra);

/** Opens a session for the user, expiring `inSeconds` from now; returns its jti. */
async function open(userId: string, inSeconds = 3600): Promise<string> {
  const jti = randomUUID();
  await sessions.create({
    userId,
    jti,
    tokenHash: randomBytes(32).toString('hex'),
    expiresAt: new Date(Date.now() + inSeconds * 1000),
    userAgent: 'jest',
    clientIpHash: '0123456789abcdef',
  });
  return jti;
}

async function sessionRow(jti: string): Promise<{ revoked_at: Date | null; last_seen_at: Date | null }> {
  const [row] = await db.query<{ revoked_at: Date | null; last_seen_at: Date | null }[]>(
    `SELECT revoked_at, last_seen_at FROM user_session WHERE jti = $1`,
    [jti],
  );
  return row!;
}

describe('SessionRepository', () => {
  it('create stores a live session whose state names its user, status and role', async () => {
    const owner = await user({ role: 'operator' });
    const jti = await open(owner.id);

    expect(await sessions.state(jti)).toEqual({
      user_id: owner.id,
      revoked: false,
      expired: false,
      user_status: 'active',
      user_role: 'operator',
    });
    const [row] = await db.query<{ user_agent: string; client_ip_hash: string }[]>(
      `SELECT user_agent, client_ip_hash FROM user_session WHERE jti = $1`,
      [jti],
    );
    expect(row).toEqual({ user_agent: 'jest', client_ip_hash: '0123456789abcdef' });
  });

  it('state is null for an unknown jti', async () => {
    expect(await sessions.state(randomUUID())).toBeNull();
  });

  it('state says expired once expires_at has passed', async () => {
    const owner = await user();
    const jti = await open(owner.id, -1);
    expect(await sessions.state(jti)).toMatchObject({ revoked: false, expired: true });
  });

  it("state follows the user's current status and role, not those at sign-in", async () => {
    const owner = await user({ role: 'researcher' });
    const jti = await open(owner.id);
    await users.update(owner.id, { status: 'deactivated', role: 'guest' });
    expect(await sessions.state(jti)).toMatchObject({
      user_id: owner.id,
      user_status: 'deactivated',
      user_role: 'guest',
    });
  });

  it('touch stamps last_seen_at of that session only', async () => {
    const owner = await user();
    const touched = await open(owner.id);
    const other = await open(owner.id);
    expect((await sessionRow(touched)).last_seen_at).toBeNull();

    await sessions.touch(touched);
    const first = (await sessionRow(touched)).last_seen_at;
    expect(first).toBeInstanceOf(Date);
    await sessions.touch(touched);
    expect((await sessionRow(touched)).last_seen_at!.getTime()).toBeGreaterThanOrEqual(first!.getTime());
    expect((await sessionRow(other)).last_seen_at).toBeNull();
    await sessions.touch(randomUUID()); // unknown: nothing happens
  });

  it('revoke revokes a live session once; the first revocation time is kept', async () => {
    const owner = await user();
    const jti = await open(owner.id);
    const kept = await open(owner.id);

    expect(await sessions.revoke(jti)).toBe(true);
    expect(await sessions.state(jti)).toMatchObject({ revoked: true, expired: false });
    const revokedAt = (await sessionRow(jti)).revoked_at;
    expect(revokedAt).toBeInstanceOf(Date);

    expect(await sessions.revoke(jti)).toBe(false);
    expect((await sessionRow(jti)).revoked_at).toEqual(revokedAt);
    expect(await sessions.state(kept)).toMatchObject({ revoked: false });
    expect(await sessions.revoke(randomUUID())).toBe(false);
  });

  it("revokeAllForUser revokes and counts that user's live sessions only", async () => {
    const owner = await user();
    const other = await user();
    const a = await open(owner.id);
    const b = await open(owner.id);
    const already = await open(owner.id);
    const theirs = await open(other.id);
    expect(await sessions.revoke(already)).toBe(true);
    const alreadyAt = (await sessionRow(already)).revoked_at;

    expect(await sessions.revokeAllForUser(owner.id)).toBe(2);
    for (const jti of [a, b, already]) expect(await sessions.state(jti)).toMatchObject({ revoked: true });
    expect((await sessionRow(already)).revoked_at).toEqual(alreadyAt);
    expect(await sessions.state(theirs)).toMatchObject({ revoked: false });

    expect(await sessions.revokeAllForUser(owner.id)).toBe(0);
    expect(await sessions.revokeAllForUser(randomUUID())).toBe(0);
  });

  it("revokeOthersForUser revokes and counts that user's other live sessions, keeping the named one", async () => {
    const owner = await user();
    const other = await user();
    const kept = await open(owner.id);
    const a = await open(owner.id);
    const b = await open(owner.id);
    const already = await open(owner.id);
    const theirs = await open(other.id);
    expect(await sessions.revoke(already)).toBe(true);
    const alreadyAt = (await sessionRow(already)).revoked_at;

    expect(await sessions.revokeOthersForUser(owner.id, kept)).toBe(2);
    for (const jti of [a, b, already]) expect(await sessions.state(jti)).toMatchObject({ revoked: true });
    expect((await sessionRow(already)).revoked_at).toEqual(alreadyAt);
    expect(await sessions.state(kept)).toMatchObject({ revoked: false });
    expect(await sessions.state(theirs)).toMatchObject({ revoked: false });

    expect(await sessions.revokeOthersForUser(owner.id, kept)).toBe(0);
    // Another user's session named as the kept one protects nothing of this user's.
    const c = await open(owner.id);
    expect(await sessions.revokeOthersForUser(owner.id, theirs)).toBe(2);
    for (const jti of [c, kept]) expect(await sessions.state(jti)).toMatchObject({ revoked: true });
  });
});
