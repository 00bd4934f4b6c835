import { DomainError, FETCH_UNIPROT_METADATA, OperationLimits, PING } from '@svc/contracts';
import { checkFollowUp, checkSubmission, payloadRefusalFor, policyContextFor } from './submission';

const limits: OperationLimits = {
  pingMaxSleepSeconds: 5,
  uniprotMaxRows: { researcher: 1000, operator: 1_000_000 },
  uniprotMaxPages: { researcher: 5, operator: 10_000 },
};
const base = { payloadLimitBytes: 256 * 1024, limits };

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('checkSubmission: payload policies by role', () => {
  it("refuses a researcher's ping over the sleep cap (422 naming the field) or asked to fail (403)", async () => {
    const slow = await refusal(
      checkSubmission({
        ...base,
        spec: PING,
        payload: { sleep_seconds: 3600 },
        role: 'researcher',
        via: 'api',
      }),
    );
    expect(slow.code).toBe('validation_error');
    expect(slow.fieldErrors).toEqual([
      { path: 'payload.sleep_seconds', message: expect.stringMatching(/at most 5/) },
    ]);
    const failing = await refusal(
      checkSubmission({ ...base, spec: PING, payload: { fail: true }, role: 'researcher', via: 'api' }),
    );
    expect(failing.code).toBe('forbidden');
    expect(failing.message).toBe('ping: a ping that fails on purpose needs role operator');
  });

  it('accepts the same payloads from operators, administrators and the service', async () => {
    const payload = { sleep_seconds: 3600, fail: true };
    for (const role of ['operator', 'admin'] as const)
      await expect(checkSubmission({ ...base, spec: PING, payload, role, via: 'api' })).resolves.toEqual(
        payload,
      );
    await expect(
      checkSubmission({ ...base, spec: PING, payload, role: null, via: 'system' }),
    ).resolves.toEqual(payload);
    await expect(
      checkSubmission({ ...base, spec: PING, payload: { sleep_seconds: 5 }, role: 'researcher', via: 'api' }),
    ).resolves.toEqual({ sleep_seconds: 5 });
  });

  it('checks a follow-up the same way', async () => {
    const error = await refusal(
      checkFollowUp({
        ...base,
        followUp: {
          operation: 'fetch_uniprot_metadata',
          queue_name: 'svc.jobs',
          payload: { search_criteria: '*', update_protein_core: true },
        },
        role: 'researcher',
        via: 'api',
      }),
    );
    expect(error.code).toBe('forbidden');
    expect(error.fieldErrors[0]?.path).toBe('payload.update_protein_core');
  });
});

describe('policyContextFor and payloadRefusalFor', () => {
  it('counts operators, administrators and system jobs as staff; a job without a role otherwise is not', () => {
    expect(policyContextFor({ role: 'operator', via: 'api', limits }).staff).toBe(true);
    expect(policyContextFor({ role: 'admin', via: 'annotate', limits }).staff).toBe(true);
    expect(policyContextFor({ role: null, via: 'system', limits }).staff).toBe(true);
    expect(policyContextFor({ role: 'researcher', via: 'api', limits }).staff).toBe(false);
    expect(policyContextFor({ role: null, via: 'api', limits }).staff).toBe(false);
  });

  it('is null for operations without a policy and for allowed payloads', () => {
    const payload = { search_criteria: '*', max_pages: 2 };
    expect(
      payloadRefusalFor({ spec: FETCH_UNIPROT_METADATA, payload, role: 'researcher', via: 'api', limits }),
    ).toBeNull();
    expect(
      payloadRefusalFor({
        spec: FETCH_UNIPROT_METADATA,
        payload: { ...payload, max_pages: 3 },
        role: 'researcher',
        via: 'api',
        limits,
      }),
    ).toMatchObject({ kind: 'over_limit', field: 'max_pages' });
  });
});
