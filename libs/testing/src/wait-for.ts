/** Polls until `probe` returns a value other than undefined, or fails with the last value seen. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${options.what ?? 'condition'}${last instanceof Error ? `: ${last.message}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}

/** Polls GET /v1/jobs/{id} until the job is SUCCEEDED, FAILED or CANCELLED. */
export async function waitForJobEnd<T extends { status: string }>(
  api: { get<R>(path: string): Promise<{ body: R }> },
  id: string,
  timeoutMs = 120_000,
): Promise<T> {
  return waitFor(
    async () => {
      const job = (await api.get<T>(`/v1/jobs/${id}`)).body;
      return ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(job.status) ? job : undefined;
    },
    { timeoutMs, intervalMs: 200, what: `job ${id} to finish` },
  );
}

/**
 * Queues a job through an HTTP route (201 expected), waits for it, and expects it SUCCEEDED without
 * an error message; returns the finished job.
 */
export async function runJobToSuccess<T extends { status: string; error_message: string | null }>(
  api: {
    get<R>(path: string): Promise<{ body: R }>;
    post<R>(path: string, body?: unknown): Promise<{ status: number; body: R }>;
  },
  path: string,
  body: unknown,
  timeoutMs = 120_000,
): Promise<T> {
  const queued = await api.post<{ id: string }>(path, body);
  expect(queued.status).toBe(201);
  const job = await waitForJobEnd<T>(api, queued.body.id, timeoutMs);
  expect(job.error_message).toBeNull();
  expect(job.status).toBe('SUCCEEDED');
  return job;
}

/** The job fields tests read, as GET /v1/jobs/{id} answers them. */
export interface TestJob {
  id: string;
  status: string;
  progress_current: number | null;
  progress_total: number | null;
  result: Record<string, unknown> | null;
  error_code: string | null;
  error_message: string | null;
}

/** The statuses a job never leaves. */
export const TERMINAL_JOB_STATUSES: readonly string[] = ['SUCCEEDED', 'FAILED', 'CANCELLED'];
