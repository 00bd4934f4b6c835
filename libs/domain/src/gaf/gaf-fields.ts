export const GO_ID_PATTERN = /^GO:\d{7}$/;

const DATE_PATTERN = /^(\d{4})(\d{2})(\d{2})$/;
const TAXON_PATTERN = /^taxon:(\d+)(?:\|taxon:(\d+))?$/;

/** True for YYYYMMDD text naming a real day of the (proleptic) Gregorian calendar. */
export function isGafDate(text: string): boolean {
  const match = DATE_PATTERN.exec(text);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * Column 13: 'taxon:9606' -> ['9606']; 'taxon:9606|taxon:1234' (the second is the interacting
 * organism, the only case the specification allows two) -> ['9606', '1234']; null when malformed.
 */
export function parseGafTaxa(text: string): string[] | null {
  const match = TAXON_PATTERN.exec(text);
  if (match === null) return null;
  return match[2] === undefined ? [match[1] ?? ''] : [match[1] ?? '', match[2]];
}

/** Splits a '|'-separated column, dropping empty items; an empty column gives []. */
export function splitPipes(text: string): string[] {
  return text.split('|').filter((item) => item !== '');
}
