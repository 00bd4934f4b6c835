import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AuditAction, AuditEntryView } from '@svc/contracts';
import { AuditRepository } from './audit.repository';
import { useRunDatabase } from '../../testing/repository-test-support';

// AuditRepository against the run's PostgreSQL: entries are appended and listed newest first, by
// action and actor, a page at a time with `after`; the log refuses every change and deletion.

let db: DataSource;
let audit: AuditRepository;

const ISO_MICROS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

useRunDatabase((opened) => {
  db = opened;
  audit = new AuditRepository(db);
});

/** An actor no other test uses, so a filter on it sees this test's entries only. */
const newActor = (): string => randomUUID();

/** The newest entries of `action` whose target is `target` (null-actor entries are found so). */
async function byTarget(action: AuditAction, target: string): Promise<AuditEntryView[]> {
  return (await audit.list({ action, limit: 50 })).filter((entry) => entry.target === target);
}

describe('AuditRepository', () => {
  it('record stores an entry that list reads back with its actor, target, payload and time', async () => {
    const actor = newActor();
    await audit.record(actor, 'api_key_mint', 'key-1', { prefix: 'abcd1234', n: 2 });

    expect(await audit.list({ actorUserId: actor, limit: 10 })).toEqual([
      {
        id: expect.any(Number),
        actor_user_id: actor,
        action: 'api_key_mint',
        target: 'key-1',
        payload: { prefix: 'abcd1234', n: 2 },
        occurred_at: expect.stringMatching(ISO_MICROS),
      },
    ]);
  });

  it('record defaults the payload to {}, and takes a null actor and a null target', async () => {
    const actor = newActor();
    await audit.record(actor, 'logout', null);
    const target = randomUUID();
    await audit.record(null, 'login_throttled', target, { attempts: 5 });

    expect(await audit.list({ actorUserId: actor, limit: 10 })).toEqual([
      expect.objectContaining({ actor_user_id: actor, action: 'logout', target: null, payload: {} }),
    ]);
    expect(await byTarget('login_throttled', target)).toEqual([
      expect.objectContaining({ actor_user_id: null, payload: { attempts: 5 } }),
    ]);
  });

  it('list is newest first and keeps to the limit', async () => {
    const actor = newActor();
    for (const n of [1, 2, 3, 4]) await audit.record(actor, 'login_ok', actor, { n });

    const all = await audit.list({ actorUserId: actor, limit: 10 });
    expect(all.map((e) => e.payload['n'])).toEqual([4, 3, 2, 1]);
    expect((await audit.list({ actorUserId: actor, limit: 2 })).map((e) => e.payload['n'])).toEqual([4, 3]);
    const ids = all.map((e) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('list filters by action, by actor, and by both together', async () => {
    const actor = newActor();
    const other = newActor();
    await audit.record(actor, 'login_ok', actor, { n: 1 });
    await audit.record(other, 'login_ok', other, { n: 2 });
    await audit.record(actor, 'logout', actor, { n: 3 });

    expect((await audit.list({ actorUserId: actor, limit: 10 })).map((e) => e.payload['n'])).toEqual([3, 1]);
    expect(
      (await audit.list({ actorUserId: actor, action: 'login_ok', limit: 10 })).map((e) => e.payload['n']),
    ).toEqual([1]);
    expect(await audit.list({ actorUserId: actor, action: 'signup', limit: 10 })).toEqual([]);
    const logins = await audit.list({ action: 'login_ok', limit: 50 });
    expect(logins.every((e) => e.action === 'login_ok')).toBe(true);
    expect(
      logins.filter((e) => e.actor_user_id === actor || e.actor_user_id === other).map((e) => e.payload['n']),
    ).toEqual([2, 1]);
    expect(await audit.list({ actorUserId: randomUUID(), limit: 10 })).toEqual([]);
  });

  it('list pages with `after`: each page holds entries strictly older than the last one seen', async () => {
    const actor = newActor();
    for (const n of [1, 2, 3, 4, 5]) await audit.record(actor, 'login_fail', actor, { n });

    const first = await audit.list({ actorUserId: actor, limit: 2 });
    expect(first.map((e) => e.payload['n'])).toEqual([5, 4]);
    const second = await audit.list({ actorUserId: actor, limit: 2, after: first[1]!.occurred_at });
    expect(second.map((e) => e.payload['n'])).toEqual([3, 2]);
    const third = await audit.list({ actorUserId: actor, limit: 2, after: second[1]!.occurred_at });
    expect(third.map((e) => e.payload['n'])).toEqual([1]);
    expect(await audit.list({ actorUserId: actor, limit: 2, after: third[0]!.occurred_at })).toEqual([]);
  });

  it('without filters, list gives the newest entries of the whole log, newest first', async () => {
    const first = newActor();
    const second = newActor();
    await audit.record(first, 'signup', first);
    await audit.record(second, 'signup', second);

    // Other test files may append meanwhile: find ours among the newest entries.
    const page = await audit.list({ limit: 50 });
    expect(page.length).toBeGreaterThanOrEqual(2);
    const times = page.map((e) => e.occurred_at);
    expect([...times].sort().reverse()).toEqual(times);
    const ours = page.map((e) => e.actor_user_id).filter((id) => id === first || id === second);
    expect(ours).toEqual([second, first]);
  });

  it('the log is append-only: an entry cannot be changed or deleted', async () => {
    const actor = newActor();
    await audit.record(actor, 'role_change', 'kept');

    await expect(
      db.query(`UPDATE audit_log SET target = 'changed' WHERE actor_user_id = $1`, [actor]),
    ).rejects.toThrow('audit_log is append-only');
    await expect(db.query(`DELETE FROM audit_log WHERE actor_user_id = $1`, [actor])).rejects.toThrow(
      'audit_log is append-only',
    );
    expect(await audit.list({ actorUserId: actor, limit: 10 })).toEqual([
      expect.objectContaining({ target: 'kept' }),
    ]);
  });
});
