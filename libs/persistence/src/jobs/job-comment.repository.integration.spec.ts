import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { JobCommentRepository } from './job-comment.repository';
import { JobRepository } from './job.repository';
import { useRunDatabase } from '../../testing/repository-test-support';
import { insertJob, insertUser } from '../../testing/repository-fixtures';

// JobCommentRepository against the run's PostgreSQL: comments on a job are stored with their author
// (the username of the account that wrote them) and listed oldest first, for that job only, a page at
// a time with `after`.

let db: DataSource;
let comments: JobCommentRepository;
let jobs: JobRepository;

const ISO_MICROS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

useRunDatabase((opened) => {
  db = opened;
  comments = new JobCommentRepository(db);
  jobs = new JobRepository(db);
});

const newJobId = (): Promise<string> => insertJob(db, { operation: 'test_job_comments' });

describe('JobCommentRepository', () => {
  it("create returns the stored comment, written by the account's username, which list reads back", async () => {
    const jobId = await newJobId();
    const reviewer = await insertUser(db, 'reviewer', { displayName: 'admin' });
    const created = await comments.create(jobId, 'looks right to me', reviewer.id);

    expect(created).toEqual({
      id: expect.any(Number),
      job_id: jobId,
      author: reviewer.username,
      body: 'looks right to me',
      created_at: expect.stringMatching(ISO_MICROS),
    });
    expect(await comments.list(jobId, 10)).toEqual([created]);
  });

  it('takes a comment without an author: no account, or one that no longer exists', async () => {
    const jobId = await newJobId();
    expect(await comments.create(jobId, 'anonymous note', null)).toMatchObject({ author: null });
    expect(await comments.create(jobId, 'gone', randomUUID())).toMatchObject({ author: null });
  });

  it('list is oldest first, keeps to the limit and to the job', async () => {
    const jobId = await newJobId();
    const otherId = await newJobId();
    const a = await comments.create(jobId, 'first', null);
    const theirs = await comments.create(otherId, 'elsewhere', null);
    const b = await comments.create(jobId, 'second', null);
    const c = await comments.create(jobId, 'third', null);

    expect(await comments.list(jobId, 10)).toEqual([a, b, c]);
    expect(await comments.list(jobId, 2)).toEqual([a, b]);
    expect(await comments.list(otherId, 10)).toEqual([theirs]);
    expect(await comments.list(randomUUID(), 10)).toEqual([]);
  });

  it('list pages with `after`: each page holds comments strictly newer than the last one seen', async () => {
    const jobId = await newJobId();
    for (const body of ['1', '2', '3', '4', '5']) await comments.create(jobId, body, null);

    const first = await comments.list(jobId, 2);
    expect(first.map((c) => c.body)).toEqual(['1', '2']);
    const second = await comments.list(jobId, 2, first[1]!.created_at);
    expect(second.map((c) => c.body)).toEqual(['3', '4']);
    const third = await comments.list(jobId, 2, second[1]!.created_at);
    expect(third.map((c) => c.body)).toEqual(['5']);
    expect(await comments.list(jobId, 2, third[0]!.created_at)).toEqual([]);
  });

  it('refuses a blank body and a job that does not exist, and stores nothing', async () => {
    const jobId = await newJobId();
    await expect(comments.create(jobId, '   ', null)).rejects.toThrow();
    await expect(comments.create(randomUUID(), 'orphan', null)).rejects.toThrow();
    expect(await comments.list(jobId, 10)).toEqual([]);
  });

  it('goes with its job when the job is deleted', async () => {
    const jobId = await newJobId();
    await comments.create(jobId, 'short-lived', null);
    await jobs.delete(jobId);
    expect(await comments.list(jobId, 10)).toEqual([]);
  });
});
