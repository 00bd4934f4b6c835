import { Transform } from 'class-transformer';
import { IsUUID, ValidateBy } from 'class-validator';
import { lowerCaseUuid } from './transforms';

/**
 * A UUID field whose 422 message is `<field> must be a valid UUID` (the specification's wording).
 * Any case is accepted and the value is lower-cased, so one id has one spelling in payloads, dedup
 * keys and SQL.
 */
export const IsValidUuid =
  (): PropertyDecorator =>
  (target, property): void => {
    Transform(lowerCaseUuid)(target, property);
    IsUUID(undefined, { message: '$property must be a valid UUID' })(target, property);
  };

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))?)?$/i;

/**
 * An ISO 8601 calendar date or date-time that PostgreSQL's timestamptz reads as written: years
 * 0001-9999, a day that exists, a time of day, an offset within ±15:59. Week and ordinal dates, year
 * 0 and six-digit years are valid ISO 8601 yet refused by the database, so they are refused here.
 */
export function isTimestamp(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const match = TIMESTAMP.exec(value);
  if (match === null) return false;
  const [
    year = 0,
    month = 0,
    day = 0,
    hour = 0,
    minute = 0,
    second = 0,
    ,
    offsetHours = 0,
    offsetMinutes = 0,
  ] = match.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 15 &&
    offsetMinutes <= 59
  );
}

/** A date or date-time filter (`after`), checked by `isTimestamp`. */
export const IsTimestamp = (): PropertyDecorator =>
  ValidateBy({
    name: 'isTimestamp',
    validator: {
      validate: (value: unknown) => isTimestamp(value),
      defaultMessage: (args) =>
        `${args?.property ?? 'value'} must be an ISO 8601 date or date-time with a year from 0001 to 9999`,
    },
  });

/**
 * A field that must not repeat another field of the same body (a new password that is the current
 * one). Both values come from the request, so the check reveals nothing stored.
 */
export const DiffersFrom = (other: string): PropertyDecorator =>
  ValidateBy({
    name: 'differsFrom',
    constraints: [other],
    validator: {
      // A missing value is left to the field's own checks.
      validate: (value: unknown, args) =>
        value === undefined || value !== (args?.object as Record<string, unknown> | undefined)?.[other],
      defaultMessage: (args) => `${args?.property ?? 'value'} must differ from ${other}`,
    },
  });
