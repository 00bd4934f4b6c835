import { ArgumentMetadata, Body, Injectable, PipeTransform, Query } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { DomainError, FieldError } from '@svc/contracts';
import { rejectUnstorableText } from './input-guards';

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ path, message }));
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

/**
 * Validates a body or query against its DTO class. Bodies must be JSON objects and reject unknown
 * keys; queries drop unknown parameters (caches and browsers add their own). No string or key may
 * hold text PostgreSQL cannot store (a NUL, an unpaired surrogate). Failures are 422 with every
 * offending field path listed. A route without a DTO (`unknown` body) gets that text check only.
 */
@Injectable()
export class DtoValidationPipe implements PipeTransform {
  constructor(private readonly mode: 'body' | 'query') {}

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    rejectUnstorableText(value, `the request ${this.mode}`);
    const cls = metadata.metatype;
    if (cls === undefined || [String, Number, Boolean, Object, Array].includes(cls as never)) return value;
    if (this.mode === 'body' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw new DomainError('validation_error', 'the request body must be a JSON object', {}, [
        { path: '', message: 'expected a JSON object' },
      ]);
    }
    let instance: object;
    let errors: ValidationError[];
    try {
      instance = plainToInstance(cls, value ?? {}) as object;
      errors = await validate(instance, {
        whitelist: true,
        forbidNonWhitelisted: this.mode === 'body',
        forbidUnknownValues: true,
      });
    } catch (error) {
      // class-transformer and class-validator recurse once per nesting level: a body nested
      // thousands of levels deep overflows the stack. The JSON parser's depth cap normally refuses
      // it first; whatever gets here is still the client's input, never a 500.
      if (error instanceof RangeError) {
        throw new DomainError(
          'validation_error',
          `the request ${this.mode} is nested too deeply to validate`,
          {},
          [{ path: '', message: 'nested too deeply' }],
        );
      }
      throw error;
    }
    if (errors.length > 0) {
      const fieldErrors = flatten(errors);
      throw new DomainError(
        'validation_error',
        fieldErrors.map((e) => `${e.path}: ${e.message}`).join('; '),
        {},
        fieldErrors,
      );
    }
    return instance;
  }
}

export const ValidBody = (): ParameterDecorator => Body(new DtoValidationPipe('body'));
export const ValidQuery = (): ParameterDecorator => Query(new DtoValidationPipe('query'));
