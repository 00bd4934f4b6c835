export const GAF_NOT = 'NOT';

/** The qualifier vocabulary of GAF 2.1 (column 4 may be empty). */
export const GAF_2_1_QUALIFIERS: readonly string[] = [GAF_NOT, 'contributes_to', 'colocalizes_with'];

/** The relations GAF 2.2 puts in column 4 (optionally preceded by NOT). */
export const GAF_2_2_RELATIONS: readonly string[] = [
  'enables',
  'contributes_to',
  'involved_in',
  'acts_upstream_of',
  'acts_upstream_of_positive_effect',
  'acts_upstream_of_negative_effect',
  'acts_upstream_of_or_within',
  'acts_upstream_of_or_within_positive_effect',
  'acts_upstream_of_or_within_negative_effect',
  'located_in',
  'part_of',
  'is_active_in',
  'colocalizes_with',
];

const RELATIONS = new Set(GAF_2_2_RELATIONS);

export interface GafQualifier {
  qualifiers: string[];
  isNot: boolean;
  relation: string | null;
}

/**
 * Splits column 4 into NOT and at most one relation. Both the GAF 2.1 and the GAF 2.2 vocabulary are
 * accepted on any line, because real files mix them (merged files keep the version header of the
 * first part). Returns an error message instead of throwing.
 */
export function parseGafQualifier(column: string): GafQualifier | { error: string } {
  if (column === '') return { qualifiers: [], isNot: false, relation: null };
  const qualifiers = column.split('|');
  let isNot = false;
  let relation: string | null = null;
  for (const token of qualifiers) {
    if (token === '') return { error: `empty qualifier in '${column}'` };
    if (token === GAF_NOT) {
      if (isNot) return { error: `NOT repeated in '${column}'` };
      isNot = true;
    } else if (RELATIONS.has(token)) {
      // One line states one relation; 'contributes_to|enables' cannot be represented downstream.
      if (relation !== null) return { error: `more than one relation in '${column}'` };
      relation = token;
    } else {
      return { error: `unknown qualifier '${token}'` };
    }
  }
  return { qualifiers, isNot, relation };
}
