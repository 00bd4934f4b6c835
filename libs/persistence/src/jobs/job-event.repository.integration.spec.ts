import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { JobEventRepository } from './job-event.repository';
import { useRunDatabase } from '../../testing/repository-test-support';
import { insertJob } from '../../testing/repository-fixtures';

// JobEventRepository against the run's PostgreSQL: events appended to a job are listed newest first,
// for that job only, a page at a time with `after`; they belong to an existing job.

let db: DataSource;
let events: JobEventRepository;

const ISO_MICROS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

useRunDatabase((opened) => {
  db = opened;
  events = new JobEventRepository(db);
});

const newJobId = (): Promise<string> => insertJob(db, { operation: 'test_job_events' });

describe('JobEventRepository', () => {
  it('append stores an event that list reads back with its level, message, fields and time', async () => {
    const jobId = await newJobId();
    await events.append(jobId, 'embeddings.batch', 'batch 1 of 3', { batch: 1, of: 3 }, 'warning');

    const [newest, created] = await events.list(jobId, 10);
    expect(newest).toEqual({
      id: expect.any(Number),
      job_id: jobId,
      ts: expect.stringMatching(ISO_MICROS),
      level: 'warning',
      event: 'embeddings.batch',
      message: 'batch 1 of 3',
      fields: { batch: 1, of: 3 },
    });
    expect(created).toMatchObject({ event: 'job.created', level: 'info' });
  });

  it('append defaults the level to info and the fields to {}', async () => {
    const jobId = await newJobId();
    await events.append(jobId, 'note', null);
    const [newest] = await events.list(jobId, 1);
    expect(newest).toMatchObject({ event: 'note', message: null, level: 'info', fields: {} });
  });

  it('list is newest first, keeps to the limit and to the job', async () => {
    const jobId = await newJobId();
    const otherId = await newJobId();
    for (const n of [1, 2, 3]) await events.append(jobId, `step.${n}`, null);
    await events.append(otherId, 'other', null);

    expect((await events.list(jobId, 10)).map((e) => e.event)).toEqual([
      'step.3',
      'step.2',
      'step.1',
      'job.created',
    ]);
    expect((await events.list(jobId, 2)).map((e) => e.event)).toEqual(['step.3', 'step.2']);
    expect((await events.list(otherId, 10)).map((e) => e.event)).toEqual(['other', 'job.created']);
    expect(await events.list(randomUUID(), 10)).toEqual([]);
  });

  it("a job's events get strictly increasing times, so paging with after never skips one", async () => {
    // An event stamped ahead of the clock (a coarse clock's tie, taken to the extreme): the next one
    // still comes after it.
    const jobId = await newJobId();
    await db.query(
      `INSERT INTO job_event (job_id, ts, level, event, message, fields)
       VALUES ($1, clock_timestamp() + interval '1 second', 'info', 'ahead', NULL, '{}')`,
      [jobId],
    );
    for (const n of [1, 2, 3]) await events.append(jobId, `step.${n}`, null);
    const listed = await events.list(jobId, 10);
    expect(listed.map((e) => e.event)).toEqual(['step.3', 'step.2', 'step.1', 'ahead', 'job.created']);
    expect(new Set(listed.map((e) => e.ts)).size).toBe(listed.length);
    // Walking back a page of one at a time reads every event once.
    const walked: string[] = [];
    let after: string | undefined;
    for (;;) {
      const [next] = await events.list(jobId, 1, after);
      if (next === undefined) break;
      walked.push(next.event);
      after = next.ts;
    }
    expect(walked).toEqual(listed.map((e) => e.event));
  });

  it('named gives every event of the job whose name starts with the prefix, oldest first', async () => {
    const jobId = await newJobId();
    const otherId = await newJobId();
    for (const n of [1, 2, 3]) await events.append(jobId, `batch.done.${n}`, null);
    await events.append(jobId, 'batches.planned', null);
    await events.append(otherId, 'batch.done.9', null);

    expect((await events.named(jobId, 'batch.done')).map((e) => e.event)).toEqual([
      'batch.done.1',
      'batch.done.2',
      'batch.done.3',
    ]);
    expect(await events.named(jobId, 'nothing')).toEqual([]);
  });

  it('list pages with `after`: each page holds events strictly older than the last one seen', async () => {
    const jobId = await newJobId();
    for (const n of [1, 2, 3, 4]) await events.append(jobId, `step.${n}`, null);

    const first = await events.list(jobId, 2);
    expect(first.map((e) => e.event)).toEqual(['step.4', 'step.3']);
    const second = await events.list(jobId, 2, first[1]!.ts);
    expect(second.map((e) => e.event)).toEqual(['step.2', 'step.1']);
    const third = await events.list(jobId, 2, second[1]!.ts);
    expect(third.map((e) => e.event)).toEqual(['job.created']);
    expect(await events.list(jobId, 2, third[0]!.ts)).toEqual([]);
  });

  it('refuses an event for a job that does not exist', async () => {
    await expect(events.append(randomUUID(), 'orphan', null)).rejects.toThrow();
  });

  it('works inside a transaction: a rolled-back event is not kept', async () => {
    const jobId = await newJobId();
    await expect(
      db.transaction(async (tx) => {
        await new JobEventRepository(tx).append(jobId, 'inside', null);
        expect((await new JobEventRepository(tx).list(jobId, 1))[0]?.event).toBe('inside');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await events.list(jobId, 10)).map((e) => e.event)).toEqual(['job.created']);
  });
});
