import { LightGbmModelError } from './lightgbm-types';

const INTEGER = /^[+-]?\d+$/;
// C++ streams print non-finite doubles as inf / -inf / nan (some libcs as -nan); JavaScript's
// Number() only knows "Infinity", so these spellings are mapped by hand.
const NON_FINITE: Readonly<Record<string, number>> = {
  inf: Infinity,
  '+inf': Infinity,
  '-inf': -Infinity,
  infinity: Infinity,
  '+infinity': Infinity,
  '-infinity': -Infinity,
  nan: NaN,
  '-nan': NaN,
  '+nan': NaN,
};

/** An integer field, as LightGBM's Atoi reads it (no fraction, no exponent). */
export function parseIntToken(token: string, what: string, line: number | null): number {
  if (!INTEGER.test(token)) throw new LightGbmModelError(`${what}: "${token}" is not an integer`, line);
  const value = Number(token);
  if (!Number.isSafeInteger(value)) throw new LightGbmModelError(`${what}: ${token} is out of range`, line);
  return value;
}

/**
 * A double field. JavaScript's Number() rounds decimal text to the nearest double, as LightGBM's
 * fast_double_parser does, so thresholds written with 17 significant digits come back bit-exact.
 */
export function parseDoubleToken(token: string, what: string, line: number | null): number {
  const special = NON_FINITE[token.toLowerCase()];
  if (special !== undefined) return special;
  if (token === '' || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(token)) {
    throw new LightGbmModelError(`${what}: "${token}" is not a number`, line);
  }
  return Number(token);
}

function parseArray(
  parseToken: (token: string, what: string, line: number | null) => number,
  field: { text: string; expected: number | null; what: string; line: number | null },
): number[] {
  const trimmed = field.text.trim();
  const values = trimmed === '' ? [] : trimmed.split(/\s+/).map((t) => parseToken(t, field.what, field.line));
  if (field.expected !== null && values.length !== field.expected) {
    throw new LightGbmModelError(
      `${field.what}: expected ${field.expected} values, found ${values.length}`,
      field.line,
    );
  }
  return values;
}

/** A space-separated integer array; `expected` null skips the length check. */
export function parseIntArray(
  text: string,
  expected: number | null,
  what: string,
  line: number | null,
): number[] {
  return parseArray(parseIntToken, { text, expected, what, line });
}

/** A space-separated double array; `expected` null skips the length check. */
export function parseDoubleArray(
  text: string,
  expected: number | null,
  what: string,
  line: number | null,
): number[] {
  return parseArray(parseDoubleToken, { text, expected, what, line });
}
