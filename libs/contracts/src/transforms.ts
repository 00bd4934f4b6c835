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

/**
 * Query-string integers. Digits beyond JavaScript's safe range (and so beyond what a SQL bigint
 * parameter can be trusted with) stay text, so `@IsInt()` refuses them with a 422.
 */
export function parseIntegerParam({ value }: TransformFnParams): unknown {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value.trim())) return value;
  const parsed = Number(value.trim());
  return Number.isSafeInteger(parsed) ? parsed : value;
}

/** Query-string numbers: decimal text becomes a number; anything else stays as is (and fails validation). */
export function parseNumberParam({ value }: TransformFnParams): unknown {
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(Number(value))) return value;
  return Number(value);
}

/** UUIDs are stored and compared in lower case; accept any case on the way in. */
export function lowerCaseUuid({ value }: TransformFnParams): unknown {
  return typeof value === 'string' && /^[0-9a-f-]{36}$/i.test(value) ? value.toLowerCase() : value;
}

/** Enumerations shown in upper case (job statuses): accept any case, as `POST /jobs` answers `queued`. */
export function upperCaseParam({ value }: TransformFnParams): unknown {
  return typeof value === 'string' ? value.trim().toUpperCase() : value;
}
