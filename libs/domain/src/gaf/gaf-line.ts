import { GAF_COLUMN_COUNT, GAF_MIN_COLUMN_COUNT, GAF_REQUIRED_COLUMNS, gafColumnLabel } from './gaf-columns';
import { GO_ID_PATTERN, isGafDate, parseGafTaxa, splitPipes } from './gaf-fields';
import { parseGafQualifier } from './gaf-qualifiers';
import type { GafAspect, GafLine } from './gaf-record';

/**
 * '!key: value'. The key starts right after '!' (prose comments usually start with '! '), holds no
 * colon, and the colon is not the start of '://' so that '!ftp://host/...' stays a comment.
 */
const HEADER_PATTERN = /^!([A-Za-z][\w .-]{0,63}?)\s*:(?!\/\/)\s*(.*)$/;

const ASPECTS: ReadonlySet<string> = new Set<GafAspect>(['F', 'P', 'C']);

/**
 * Classifies and parses one line of a GAF 2.1 / 2.2 file. Never throws: a line that breaks a rule
 * comes back as kind 'error' listing every problem found on it, so an upload can report them all.
 */
export function parseGafLine(line: string, lineNumber: number): GafLine {
  // A BOM only ever precedes the first line, but stripping it anywhere is harmless.
  const text = line.replace(/^\uFEFF/, '').replace(/[\r\n]+$/, '');
  if (text.trim() === '') return { kind: 'comment' };
  if (text.startsWith('!')) {
    const match = HEADER_PATTERN.exec(text);
    if (match === null) return { kind: 'comment' };
    return { kind: 'header', key: (match[1] ?? '').trim(), value: (match[2] ?? '').trim() };
  }

  const columns = text.split('\t');
  if (columns.length < GAF_MIN_COLUMN_COUNT || columns.length > GAF_COLUMN_COUNT) {
    return error(
      `expected ${GAF_MIN_COLUMN_COUNT} to ${GAF_COLUMN_COUNT} tab-separated columns, found ${columns.length}`,
    );
  }
  // Stray spaces around values come from hand-edited files and never carry meaning in GAF.
  const column = (n: number): string => (columns[n - 1] ?? '').trim();

  const problems: string[] = [];
  for (const n of GAF_REQUIRED_COLUMNS) {
    if (column(n) === '') problems.push(`${gafColumnLabel(n)} is empty`);
  }

  const qualifier = parseGafQualifier(column(4));
  if ('error' in qualifier) problems.push(`${gafColumnLabel(4)}: ${qualifier.error}`);

  const goId = column(5);
  if (goId !== '' && !GO_ID_PATTERN.test(goId)) {
    problems.push(`${gafColumnLabel(5)} '${goId}' is not of the form GO:nnnnnnn`);
  }
  const aspect = column(9);
  if (aspect !== '' && !ASPECTS.has(aspect)) {
    problems.push(`${gafColumnLabel(9)} '${aspect}' is not one of F, P, C`);
  }
  const taxonColumn = column(13);
  const taxa = parseGafTaxa(taxonColumn);
  if (taxonColumn !== '' && taxa === null) {
    problems.push(`${gafColumnLabel(13)} '${taxonColumn}' is not taxon:<id> or taxon:<id>|taxon:<id>`);
  }
  const date = column(14);
  if (date !== '' && !isGafDate(date)) {
    problems.push(`${gafColumnLabel(14)} '${date}' is not a calendar date written YYYYMMDD`);
  }

  if (problems.length > 0 || 'error' in qualifier || taxa === null) return error(problems.join('; '));

  return {
    kind: 'record',
    record: {
      lineNumber,
      db: column(1),
      dbObjectId: column(2),
      dbObjectSymbol: column(3),
      qualifier: column(4),
      qualifiers: qualifier.qualifiers,
      isNot: qualifier.isNot,
      relation: qualifier.relation,
      goId,
      dbReference: column(6),
      evidenceCode: column(7),
      withFrom: nullIfEmpty(column(8)),
      aspect: aspect as GafAspect,
      dbObjectName: nullIfEmpty(column(10)),
      dbObjectSynonyms: splitPipes(column(11)),
      dbObjectType: column(12),
      taxa,
      date,
      assignedBy: column(15),
      annotationExtension: nullIfEmpty(column(16)),
      geneProductFormId: nullIfEmpty(column(17)),
    },
  };

  function error(message: string): GafLine {
    return { kind: 'error', lineNumber, message: `line ${lineNumber}: ${message}`, line: text };
  }
}

function nullIfEmpty(text: string): string | null {
  return text === '' ? null : text;
}
