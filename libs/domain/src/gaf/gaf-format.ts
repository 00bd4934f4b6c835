import { GAF_NOT } from './gaf-qualifiers';
import { parseGafLine } from './gaf-line';
import type { GafAspect } from './gaf-record';

/** What a GAF line needs; a parsed GafRecord fits as is. */
export interface GafLineFields {
  db: string;
  dbObjectId: string;
  dbObjectSymbol: string;
  isNot?: boolean;
  relation?: string | null;
  goId: string;
  dbReference: string;
  evidenceCode: string;
  withFrom?: string | null;
  aspect: GafAspect;
  dbObjectName?: string | null;
  dbObjectSynonyms?: readonly string[];
  dbObjectType: string;
  /** Taxon ids without the 'taxon:' prefix. */
  taxa: readonly string[];
  /** YYYYMMDD. */
  date: string;
  assignedBy: string;
  annotationExtension?: string | null;
  geneProductFormId?: string | null;
}

export const GAF_VERSION = '2.2';

/**
 * One GAF 2.2 line (17 columns, no line break). The qualifier column is rebuilt from isNot and
 * relation, so 'NOT' always comes first. Throws a RangeError naming the problems when the fields
 * would not make a valid line (a tab or line break in a value, a bad GO id or date, ...): the line
 * is parsed back before it is returned, so a converter can never write a file its own reader rejects.
 */
export function formatGafLine(fields: GafLineFields): string {
  const qualifier = [fields.isNot === true ? GAF_NOT : null, fields.relation ?? null]
    .filter((item): item is string => item !== null && item !== '')
    .join('|');
  const columns = [
    fields.db,
    fields.dbObjectId,
    fields.dbObjectSymbol,
    qualifier,
    fields.goId,
    fields.dbReference,
    fields.evidenceCode,
    fields.withFrom ?? '',
    fields.aspect,
    fields.dbObjectName ?? '',
    (fields.dbObjectSynonyms ?? []).join('|'),
    fields.dbObjectType,
    fields.taxa.map((taxon) => `taxon:${taxon}`).join('|'),
    fields.date,
    fields.assignedBy,
    fields.annotationExtension ?? '',
    fields.geneProductFormId ?? '',
  ];
  const broken = columns.findIndex((value) => /[\t\r\n]/.test(value));
  if (broken >= 0) throw new RangeError(`GAF column ${broken + 1} contains a tab or line break`);
  const line = columns.join('\t');
  const parsed = parseGafLine(line, 1);
  if (parsed.kind !== 'record') {
    const reason = parsed.kind === 'error' ? parsed.message.replace(/^line 1: /, '') : 'not a record line';
    throw new RangeError(`cannot write GAF line: ${reason}`);
  }
  return line;
}

const HEADER_KEY_PATTERN = /^[A-Za-z](?:[\w .-]{0,62}[\w.-])?$/;

/**
 * The header block of a GAF 2.2 file: '!gaf-version: 2.2' first, then one '!key: value' per property
 * (e.g. generated-by, date-generated). Keys must read back as header keys, so they are checked.
 */
export function formatGafHeader(properties: Readonly<Record<string, string>> = {}): string[] {
  const lines = [`!gaf-version: ${GAF_VERSION}`];
  for (const [key, value] of Object.entries(properties)) {
    if (!HEADER_KEY_PATTERN.test(key) || key.toLowerCase() === 'gaf-version') {
      throw new RangeError(`'${key}' cannot be written as a GAF header key`);
    }
    if (/[\r\n]/.test(value)) throw new RangeError(`GAF header '${key}' has a line break in its value`);
    lines.push(`!${key}: ${value}`);
  }
  return lines;
}
