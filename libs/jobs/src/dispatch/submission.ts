import {
  DomainError,
  findOperationSpec,
  hasRoleAtLeast,
  JobEntryPoint,
  normalizeRole,
  OperationLimits,
  OperationSpec,
  PayloadRefusal,
  PolicyContext,
  Role,
  roleFloorFor,
} from '@svc/contracts';
import { assertJsonWithin } from '@svc/platform';
import { JobError } from '../runtime/job-error';
import { validatePayload } from '../runtime/validate-payload';

/** What a submitter asks for: one operation, its queue and payload, on behalf of a role. */
export interface SubmissionRequest {
  spec: OperationSpec;
  /** The queue the client named; absent means the catalogue's. */
  queueName?: string;
  payload: unknown;
  /** The submitter's role; null for the service itself. */
  role: Role | null;
  via: JobEntryPoint;
  /** Largest payload, as JSON text. */
  payloadLimitBytes: number;
  /** The caps of the operations' payload policies (the security settings). */
  limits: OperationLimits;
}

/** A follow-up as a job's `meta.then` describes it. */
export interface FollowUpRequest {
  operation: string;
  queue_name: string;
  payload: Record<string, unknown>;
  result_key?: string;
}

const RESULT_KEY = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * The checks every submission passes, whoever makes it (a user's request, a follow-up queued on
 * their behalf): the operation's queue is the catalogue's, the submitter's role reaches the floor of
 * the entry point, the payload is within its size limit and valid against the operation's schema,
 * and the operation's payload policy allows it to the submitter's role (caps, staff-only values).
 * Returns the payload as plain JSON. Throws a DomainError (403 forbidden, 413, 422) otherwise.
 */
export async function checkSubmission(request: SubmissionRequest): Promise<Record<string, unknown>> {
  const { spec } = request;
  if (request.queueName !== undefined && request.queueName !== spec.queue) {
    throw new DomainError(
      'validation_error',
      `operation ${spec.name} runs on queue '${spec.queue}' only`,
      { allowed_queue: spec.queue },
      [{ path: 'queue_name', message: `must be '${spec.queue}' for operation ${spec.name}` }],
    );
  }
  if (request.via !== 'system') {
    const floor = roleFloorFor(spec, request.via);
    if (request.role === null || !hasRoleAtLeast(request.role, floor)) {
      throw new DomainError('forbidden', `operation ${spec.name} needs role ${floor}`);
    }
  }
  const payload = request.payload ?? {};
  assertJsonWithin(payload, request.payloadLimitBytes, `the ${spec.name} payload`);
  let validated: object;
  try {
    validated = await validatePayload(spec.payload, JSON.parse(JSON.stringify(payload)) as unknown);
  } catch (error) {
    if (error instanceof JobError) {
      throw new DomainError('validation_error', error.message, {}, [
        { path: 'payload', message: error.message },
      ]);
    }
    throw error;
  }
  const refusal = payloadRefusalFor({
    spec,
    payload: validated,
    role: request.role,
    via: request.via,
    limits: request.limits,
  });
  if (refusal !== null) {
    const fieldErrors = [{ path: `payload.${refusal.field}`, message: refusal.message }];
    throw new DomainError(
      refusal.kind === 'forbidden' ? 'forbidden' : 'validation_error',
      `${spec.name}: ${refusal.message}`,
      {},
      fieldErrors,
    );
  }
  // The validated form is what is stored: one spelling of every id (lower-case UUIDs), trimmed text,
  // so that dedup keys and the rows that compare payload fields see what the workers see.
  return JSON.parse(JSON.stringify(validated)) as Record<string, unknown>;
}

/**
 * Who a payload policy checks for: staff are operators, administrators and the service's own jobs
 * (entry point `system`); a job with no recorded role that the service did not queue is not staff.
 */
export function policyContextFor(input: {
  role: string | null;
  via: string;
  limits: OperationLimits;
}): PolicyContext {
  const staff =
    input.via === 'system' || (input.role !== null && hasRoleAtLeast(normalizeRole(input.role), 'operator'));
  return { staff, limits: input.limits };
}

/** What the operation's payload policy refuses of a validated payload for its submitter; null if nothing. */
export function payloadRefusalFor(input: {
  spec: OperationSpec;
  payload: object;
  role: string | null;
  via: string;
  limits: OperationLimits;
}): PayloadRefusal | null {
  if (input.spec.policy === undefined) return null;
  return input.spec.policy(input.payload, policyContextFor(input));
}

/** The follow-up a job's meta asks for, or null; a malformed `then` is a validation error. */
export function readFollowUp(meta: unknown): FollowUpRequest | null {
  const then = (meta as { then?: unknown } | null | undefined)?.then;
  if (then === undefined || then === null) return null;
  const f = then as Partial<FollowUpRequest>;
  const valid =
    typeof then === 'object' &&
    !Array.isArray(then) &&
    typeof f.operation === 'string' &&
    typeof f.queue_name === 'string' &&
    typeof f.payload === 'object' &&
    f.payload !== null &&
    !Array.isArray(f.payload) &&
    (f.result_key === undefined || (typeof f.result_key === 'string' && RESULT_KEY.test(f.result_key)));
  if (!valid) {
    throw new DomainError(
      'validation_error',
      'meta.then must be {operation, queue_name, payload, result_key?}',
      {},
      [{ path: 'meta.then', message: 'must be {operation, queue_name, payload, result_key?}' }],
    );
  }
  return f as FollowUpRequest;
}

/**
 * Checks a follow-up exactly as if its submitter had queued it directly. Returns its operation and
 * plain payload; throws the DomainError the submitter would have got.
 */
export async function checkFollowUp(input: {
  followUp: FollowUpRequest;
  role: string | null;
  via: JobEntryPoint;
  payloadLimitBytes: number;
  limits: OperationLimits;
}): Promise<{ spec: OperationSpec; payload: Record<string, unknown> }> {
  const spec = findOperationSpec(input.followUp.operation);
  if (spec === undefined) {
    throw new DomainError(
      'validation_error',
      `unknown follow-up operation '${input.followUp.operation}'`,
      {},
      [{ path: 'meta.then.operation', message: 'unknown operation' }],
    );
  }
  const payload = await checkSubmission({
    spec,
    queueName: input.followUp.queue_name,
    payload: input.followUp.payload,
    role: input.role === null ? null : normalizeRole(input.role),
    via: input.via,
    payloadLimitBytes: input.payloadLimitBytes,
    limits: input.limits,
  });
  return { spec, payload };
}
