import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AuditRepository } from './audit.repository';
import { useRunDatabase } from '../repository-test-support';

// AuditRepository against the run's PostgreSQL: entries are appended and listed newest first, by
// action and actor, a page at a time with `after`; the log refuses every change and deletion.

let db: DataSource;
let audit: AuditRepository;

const ISO_MICROS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

useRunDatabase((opened) => {
  db = opened;
  audit = new AuditRepository(db);
});

/** An action name no other test uses, so a filter on it sees this test's entries only. */
const newAction = (): string => `test_${randomUUID()}`;

describe('AuditRepository', () => {
  it('append stores an entry that list reads back with its actor, target, payload and time', async () => {
    const action = newAction();
    const actor = randomUUID();
    await audit.append({
      actorUserId: actor,
      action,
      target: 'key-1',
      payload: { prefix: 'abcd1234', n: 2 },
    });

    expect(await audit.list({ action, limit: 10 })).toEqual([
      {
        id: expect.any(Number),
        actor_user_id: actor,
        action,
        target: 'key-1',
        payload: { prefix: 'abcd1234', n: 2 },
        occurred_at: expect.stringMatching(ISO_MICROS),
      },
    ]);
  });

  it('append defaults the target to null and the payload to {}, and takes a null actor', async () => {
    const action = newAction();
    await audit.append({ actorUserId: null, action });
    expect(await audit.list({ action, limit: 10 })).toEqual([
      expect.objectContaining({ actor_user_id: null, target: null, payload: {} }),
    ]);
  });

  it('record writes the same entry as append, from positional arguments', async () => {
    const action = newAction();
    const actor = randomUUID();
    await audit.record(actor, action, 'row-1', { n: 1 });
    await audit.record(null, action, null);
    expect(await audit.list({ action, limit: 10 })).toEqual([
      expect.objectContaining({ actor_user_id: null, target: null, payload: {} }),
      expect.objectContaining({ actor_user_id: actor, target: 'row-1', payload: { n: 1 } }),
    ]);
  });

  it('list is newest first and keeps to the limit', async () => {
    const action = newAction();
    for (const n of [1, 2, 3, 4]) await audit.append({ actorUserId: null, action, payload: { n } });

    const all = await audit.list({ action, limit: 10 });
    expect(all.map((e) => e.payload['n'])).toEqual([4, 3, 2, 1]);
    expect((await audit.list({ action, limit: 2 })).map((e) => e.payload['n'])).toEqual([4, 3]);
    const ids = all.map((e) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('list filters by actor, and by actor and action together', async () => {
    const actor = randomUUID();
    const other = randomUUID();
    const login = newAction();
    const logout = newAction();
    await audit.append({ actorUserId: actor, action: login, payload: { n: 1 } });
    await audit.append({ actorUserId: other, action: login, payload: { n: 2 } });
    await audit.append({ actorUserId: actor, action: logout, payload: { n: 3 } });

    expect((await audit.list({ actorUserId: actor, limit: 10 })).map((e) => e.payload['n'])).toEqual([3, 1]);
    expect(
      (await audit.list({ actorUserId: actor, action: login, limit: 10 })).map((e) => e.payload['n']),
    ).toEqual([1]);
    expect((await audit.list({ action: login, limit: 10 })).map((e) => e.payload['n'])).toEqual([2, 1]);
    expect(await audit.list({ actorUserId: randomUUID(), limit: 10 })).toEqual([]);
  });

  it('list pages with `after`: each page holds entries strictly older than the last one seen', async () => {
    const action = newAction();
    for (const n of [1, 2, 3, 4, 5]) await audit.append({ actorUserId: null, action, payload: { n } });

    const first = await audit.list({ action, limit: 2 });
    expect(first.map((e) => e.payload['n'])).toEqual([5, 4]);
    const second = await audit.list({ action, limit: 2, after: first[1]!.occurred_at });
    expect(second.map((e) => e.payload['n'])).toEqual([3, 2]);
    const third = await audit.list({ action, limit: 2, after: second[1]!.occurred_at });
    expect(third.map((e) => e.payload['n'])).toEqual([1]);
    expect(await audit.list({ action, limit: 2, after: third[0]!.occurred_at })).toEqual([]);
  });

  it('without filters, list gives the newest entries of the whole log, newest first', async () => {
    const older = newAction();
    const newer = newAction();
    await audit.append({ actorUserId: null, action: older });
    await audit.append({ actorUserId: randomUUID(), action: newer });

    // Other test files may append meanwhile: find ours among the newest entries.
    const page = await audit.list({ limit: 50 });
    expect(page.length).toBeGreaterThanOrEqual(2);
    const times = page.map((e) => e.occurred_at);
    expect([...times].sort().reverse()).toEqual(times);
    const ours = page.filter((e) => e.action === older || e.action === newer).map((e) => e.action);
    expect(ours).toEqual([newer, older]);
  });

  it('the log is append-only: an entry cannot be changed or deleted', async () => {
    const action = newAction();
    await audit.append({ actorUserId: null, action, target: 'kept' });

    await expect(
      db.query(`UPDATE audit_log SET target = 'changed' WHERE action = $1`, [action]),
    ).rejects.toThrow('audit_log is append-only');
    await expect(db.query(`DELETE FROM audit_log WHERE action = $1`, [action])).rejects.toThrow(
      'audit_log is append-only',
    );
    expect(await audit.list({ action, limit: 10 })).toEqual([expect.objectContaining({ target: 'kept' })]);
  });
});
