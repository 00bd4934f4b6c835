/** Body of a message on a job queue. */
export interface JobMessage {
  job_id: string;
}

/** Body of a message on an operation queue (batch/write steps of a coordinator). */
export interface OperationMessage {
  operation: string;
  job_id: string;
  payload: Record<string, unknown>;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseJobMessage(value: unknown): JobMessage | null {
  if (!isPlainObject(value) || Object.keys(value).length !== 1 || !isUuid(value['job_id'])) return null;
  return { job_id: value['job_id'] };
}

export function parseOperationMessage(value: unknown): OperationMessage | null {
  if (!isPlainObject(value)) return null;
  const { operation, job_id, payload } = value;
  if (Object.keys(value).length !== 3) return null;
  if (typeof operation !== 'string' || operation.length === 0 || !isUuid(job_id) || !isPlainObject(payload)) {
    return null;
  }
  return { operation, job_id, payload };
}
