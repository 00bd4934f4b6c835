import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import type { PayloadClass } from '@svc/contracts';
import { JobError } from './job-error';

/** Validates a payload against its class (unknown keys rejected); throws JobError `invalid_payload`. */
export async function validatePayload<P extends object>(cls: PayloadClass, payload: unknown): Promise<P> {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new JobError('invalid_payload', 'payload must be a JSON object');
  }
  const instance = plainToInstance(cls, payload) as P;
  const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) {
    throw new JobError('invalid_payload', `invalid payload: ${flattenErrors(errors).join('; ')}`);
  }
  return instance;
}

export function flattenErrors(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => `${path}: ${message}`);
    return [...own, ...flattenErrors(error.children ?? [], path)];
  });
}
