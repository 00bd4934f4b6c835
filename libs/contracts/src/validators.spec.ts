import { plainToInstance } from 'class-transformer';
import { IsOptional, validateSync } from 'class-validator';
import { parseIntegerParam } from './transforms';
import { DiffersFrom, isTimestamp, IsTimestamp, IsValidUuid } from './validators';

describe('isTimestamp', () => {
  it.each([
    ['2024-01-31', true],
    ['2024-02-29', true],
    ['2024-02-29T23:59:59Z', true],
    ['2024-02-29T23:59:59.123456Z', true],
    ['2024-02-29T23:59:59+05:30', true],
    ['2024-02-29T23:59:59-1200', true],
    ['2024-02-29 10:00', true],
    ['0001-01-01T00:00:00Z', true],
    ['9999-12-31T23:59:59Z', true],
    ['2023-02-29', false],
    ['2024-02-30', false],
    ['2024-13-01', false],
    ['0000-01-01', false],
    ['275760-09-13T00:00:00Z', false],
    ['+275760-09-13T00:00:00Z', false],
    ['2024-W01', false],
    ['2024-001', false],
    ['20240101', false],
    ['2024-01-01T24:00:00Z', false],
    ['2024-01-01T23:60:00Z', false],
    ['2024-01-01T23:59:60Z', false],
    ['2024-01-01T00:00:00+16:00', false],
    ['2024-01-01T00:00:00.0000000001Z', false],
    ['yesterday', false],
    ['', false],
  ])('%s -> %s', (value, expected) => {
    expect(isTimestamp(value)).toBe(expected);
  });

  it.each([[null], [20240101], [['2024-01-01']], [{}]])('refuses %p', (value) => {
    expect(isTimestamp(value)).toBe(false);
  });
});

class Probe {
  @IsOptional() @IsValidUuid() id?: string;
  @IsOptional() @IsTimestamp() after?: string;
}

describe('IsValidUuid and IsTimestamp on a DTO', () => {
  it.each([
    { input: { id: '3F2504E0-4F89-11D3-9A0C-0305E82C3301' }, id: '3f2504e0-4f89-11d3-9a0c-0305e82c3301' },
    { input: { id: '3f2504e0-4f89-11d3-9a0c-0305e82c3301' }, id: '3f2504e0-4f89-11d3-9a0c-0305e82c3301' },
  ])('accepts $input.id and stores it in lower case', ({ input, id }) => {
    const instance = plainToInstance(Probe, input);
    expect(validateSync(instance)).toEqual([]);
    expect(instance.id).toBe(id);
  });

  it.each([
    [{ id: 'not-a-uuid' }, 'id must be a valid UUID'],
    [{ id: ['3f2504e0-4f89-11d3-9a0c-0305e82c3301'] }, 'id must be a valid UUID'],
    [{ after: '0000-01-01' }, 'after must be an ISO 8601 date or date-time with a year from 0001 to 9999'],
  ])('refuses %p', (input, message) => {
    const errors = validateSync(plainToInstance(Probe, input));
    expect(errors.flatMap((e) => Object.values(e.constraints ?? {}))).toEqual([message]);
  });
});

class PasswordPair {
  current?: unknown;
  @DiffersFrom('current') next?: unknown;
}

describe('DiffersFrom', () => {
  it.each([
    { name: 'a different value', input: { current: 'old-password', next: 'new-password' }, errors: [] },
    {
      name: 'the same value',
      input: { current: 'same-password', next: 'same-password' },
      errors: ['next must differ from current'],
    },
    { name: 'a case-only difference', input: { current: 'Password-1', next: 'password-1' }, errors: [] },
    { name: 'the other field missing', input: { next: 'new-password' }, errors: [] },
    { name: 'both missing (left to the presence checks)', input: {}, errors: [] },
  ])('$name', ({ input, errors }) => {
    const found = validateSync(plainToInstance(PasswordPair, input));
    expect(found.flatMap((e) => Object.values(e.constraints ?? {}))).toEqual(errors);
  });
});

describe('parseIntegerParam', () => {
  const parse = (value: unknown): unknown =>
    parseIntegerParam({ value } as Parameters<typeof parseIntegerParam>[0]);

  it.each([
    ['0', 0],
    ['42', 42],
    [' 7 ', 7],
    ['-1', -1],
    ['9007199254740991', 9007199254740991],
    // Beyond the safe range the text stays text, so @IsInt refuses it.
    ['9007199254740993', '9007199254740993'],
    ['99999999999999999999', '99999999999999999999'],
    ['1e3', '1e3'],
    ['1.5', '1.5'],
    ['', ''],
  ])('%p -> %p', (value, expected) => {
    expect(parse(value)).toBe(expected);
  });

  it('leaves repeated parameters (arrays) for the validators', () => {
    expect(parse(['1', '2'])).toEqual(['1', '2']);
  });
});
