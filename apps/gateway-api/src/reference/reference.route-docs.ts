/** What a queued job answers (QueuedJobView's fields carry no example of their own). */
export const QUEUED_EXAMPLE = { id: '7d0c3bb8-8f0a-4b4e-9d55-2b1f0c1f9b6e', status: 'queued' };
/** Problems of every route that queues a job: a payload naming an unknown row, an identical active job, no broker. */
export const QUEUE_PROBLEMS = [404, 409, 503] as const;
