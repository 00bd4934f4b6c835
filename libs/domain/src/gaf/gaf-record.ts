/** GAF aspect: molecular function, biological process, cellular component. */
export type GafAspect = 'F' | 'P' | 'C';

/** One annotation line of a GAF 2.1 / 2.2 file, split into its 17 columns. */
export interface GafRecord {
  lineNumber: number;
  db: string;
  dbObjectId: string;
  dbObjectSymbol: string;
  /** Column 4 as written, e.g. 'NOT|enables'. */
  qualifier: string;
  /** Column 4 split on '|'. */
  qualifiers: string[];
  isNot: boolean;
  /** The relation (enables, involved_in, part_of, colocalizes_with, ...) without NOT; null when absent. */
  relation: string | null;
  goId: string;
  dbReference: string;
  evidenceCode: string;
  withFrom: string | null;
  aspect: GafAspect;
  dbObjectName: string | null;
  dbObjectSynonyms: string[];
  dbObjectType: string;
  /** Taxon ids without the prefix: 'taxon:9606|taxon:1234' -> ['9606', '1234']. */
  taxa: string[];
  /** YYYYMMDD. */
  date: string;
  assignedBy: string;
  annotationExtension: string | null;
  geneProductFormId: string | null;
}

/** The header lines of a GAF file: the version plus every other '!key: value' line. */
export interface GafHeader {
  /** From '!gaf-version: 2.2'; null until (unless) the file declares it. */
  version: string | null;
  properties: Record<string, string>;
}

export type GafLine =
  | { kind: 'header'; key: string; value: string }
  | { kind: 'comment' }
  | { kind: 'record'; record: GafRecord }
  | { kind: 'error'; lineNumber: number; message: string; line: string };
