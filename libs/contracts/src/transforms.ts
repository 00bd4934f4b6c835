import { TransformFnParams } from 'class-transformer';

/** Strips surrounding white space from strings and leaves every other value for the validators. */
export function trimString({ value }: TransformFnParams): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

/** Query-string booleans: `true/1/yes/on` and `false/0/no/off`; anything else stays as is (and fails validation). */
export function parseBooleanParam({ value }: TransformFnParams): unknown {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  return value;
}

export function parseIntegerParam({ value }: TransformFnParams): unknown {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value.trim())) return value;
  return Number(value.trim());
}
