import { ArgumentMetadata } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { DomainError } from '@svc/contracts';
import { DtoValidationPipe } from './validation';

class NoteRequest {
  @IsString() note!: string;
  @IsOptional() extra?: unknown;
}

const body: ArgumentMetadata = { type: 'body', metatype: NoteRequest };
const untyped: ArgumentMetadata = { type: 'body', metatype: Object };

function nested(levels: number): unknown {
  let value: unknown = {};
  for (let i = 0; i < levels; i += 1) value = { a: value };
  return value;
}

async function failureOf(run: () => Promise<unknown>): Promise<DomainError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('DtoValidationPipe', () => {
  const pipe = new DtoValidationPipe('body');

  it('passes a valid body as an instance of its DTO', async () => {
    await expect(pipe.transform({ note: 'fine' }, body)).resolves.toBeInstanceOf(NoteRequest);
  });

  it.each([
    { name: 'a NUL in a field', value: { note: 'a\u0000b' }, path: 'note' },
    {
      name: 'a NUL deep inside an untyped field',
      value: { note: 'x', extra: { k: ['\u0000'] } },
      path: 'extra.k[0]',
    },
    { name: 'an unpaired surrogate', value: { note: '\ud800' }, path: 'note' },
  ])('422 for $name, naming the field', async ({ value, path }) => {
    const error = await failureOf(() => pipe.transform(value, body));
    expect(error.code).toBe('validation_error');
    expect(error.fieldErrors.map((e) => e.path)).toEqual([path]);
  });

  it('checks the text of a body that has no DTO', async () => {
    const error = await failureOf(() => pipe.transform({ description: 'a\u0000b' }, untyped));
    expect(error.fieldErrors.map((e) => e.path)).toEqual(['description']);
    await expect(pipe.transform({ description: 'fine' }, untyped)).resolves.toEqual({ description: 'fine' });
  });

  it('a body nested deeper than the stack allows is a 422, not a stack overflow', async () => {
    const error = await failureOf(() => pipe.transform({ note: 'x', extra: nested(50_000) }, body));
    expect(error.code).toBe('validation_error');
    expect(error.message).toBe('the request body is nested too deeply to validate');
  });
});
