/** GO aspect letters as used in GAF column 9: molecular function, biological process, cellular component. */
export type GoAspect = 'F' | 'P' | 'C';

/**
 * The relations kept as parent edges. These are the ones GO annotation propagation may follow;
 * others (has_part, occurs_in, ...) point the "wrong" way for propagation and are dropped at parse time.
 */
export type RelationType = 'is_a' | 'part_of' | 'regulates' | 'negatively_regulates' | 'positively_regulates';

export const RELATION_TYPES: readonly RelationType[] = [
  'is_a',
  'part_of',
  'regulates',
  'negatively_regulates',
  'positively_regulates',
];

export interface OboParent {
  id: string;
  relation: RelationType;
}

export interface OboTerm {
  id: string;
  name: string | null;
  namespace: string | null;
  aspect: GoAspect | null;
  definition: string | null;
  isObsolete: boolean;
  altIds: string[];
  parents: OboParent[];
}

export interface OboHeader {
  formatVersion: string | null;
  dataVersion: string | null;
  ontology: string | null;
  date: string | null;
}

export interface OboDocument {
  header: OboHeader;
  terms: OboTerm[];
  /** Ids of the `[Typedef]` stanzas, in file order. */
  typedefs: string[];
}
