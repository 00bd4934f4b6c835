/** One row of NCBI taxonomy's nodes.dmp: a taxon, its parent and its rank. */
export interface TaxonNode {
  taxId: number;
  /** The root (tax_id 1) is its own parent. */
  parentTaxId: number;
  /** 'species', 'genus', 'no rank', 'clade', ... as written in the file. */
  rank: string;
}

export interface NodesDmpProblem {
  lineNumber: number;
  message: string;
}

export interface NodesDmpResult {
  nodes: TaxonNode[];
  problems: NodesDmpProblem[];
}

/**
 * Tax ids are positive integers; NCBI's are below 4 million today. The bound keeps the lineage
 * index's typed arrays (indexed by tax id) from being sized by a corrupt line.
 */
export const MAX_TAX_ID = 50_000_000;

const FIELD_SEPARATOR = '\t|\t';
const TAX_ID = /^[1-9]\d{0,9}$/;

function parseTaxId(text: string): number | null {
  if (!TAX_ID.test(text)) return null;
  const value = Number(text);
  return value <= MAX_TAX_ID ? value : null;
}

/**
 * Reads one nodes.dmp line ("tax_id\t|\tparent tax_id\t|\trank\t|\t...\t|"); only the first three
 * fields are used, so the 13-field classic dump and the longer new_taxdump both read. Returns the
 * node, null for a blank line, or the reason the line is unusable.
 */
export function parseNodesDmpLine(line: string): TaxonNode | null | { problem: string } {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (text.trim() === '') return null;
  const first = text.indexOf(FIELD_SEPARATOR);
  const second = first < 0 ? -1 : text.indexOf(FIELD_SEPARATOR, first + FIELD_SEPARATOR.length);
  if (second < 0) return { problem: 'expected tax_id, parent tax_id and rank separated by "\\t|\\t"' };
  const third = text.indexOf('\t|', second + FIELD_SEPARATOR.length);
  const taxIdText = text.slice(0, first);
  const parentText = text.slice(first + FIELD_SEPARATOR.length, second);
  const rank = text.slice(second + FIELD_SEPARATOR.length, third < 0 ? text.length : third).trim();
  const taxId = parseTaxId(taxIdText);
  const parentTaxId = parseTaxId(parentText);
  if (taxId === null) return { problem: `tax_id '${taxIdText}' is not an integer from 1 to ${MAX_TAX_ID}` };
  if (parentTaxId === null)
    return { problem: `parent tax_id '${parentText}' is not an integer from 1 to ${MAX_TAX_ID}` };
  return { taxId, parentTaxId, rank: rank === '' ? 'no rank' : rank };
}

/** Parses a whole nodes.dmp text; unusable and duplicate lines are reported and skipped. */
export function parseNodesDmp(text: string): NodesDmpResult {
  const nodes: TaxonNode[] = [];
  const problems: NodesDmpProblem[] = [];
  const seen = new Set<number>();
  text.split('\n').forEach((line, index) => {
    const parsed = parseNodesDmpLine(line);
    if (parsed === null) return;
    if ('problem' in parsed) {
      problems.push({ lineNumber: index + 1, message: parsed.problem });
      return;
    }
    if (seen.has(parsed.taxId)) {
      problems.push({ lineNumber: index + 1, message: `tax_id ${parsed.taxId} appears twice` });
      return;
    }
    seen.add(parsed.taxId);
    nodes.push(parsed);
  });
  return { nodes, problems };
}
