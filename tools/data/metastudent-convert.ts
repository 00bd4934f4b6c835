import {
  formatFastaRecord,
  formatGafHeader,
  formatGafLine,
  GO_ID_PATTERN,
  invalidResidueCharacters,
  isUniProtAccession,
  md5Hex,
  UNIDENTIFIED_TAXON,
  type GafAspect,
  type GafLineFields,
} from '@svc/domain';

/**
 * The conversion of Debian's `metastudent-data` (dataset_201401: the Swiss-Prot proteins of 2014-01
 * with GO annotations, one folder per aspect) into one FASTA and one GAF 2.2 file, without I/O: the
 * caller feeds lines (of each aspect's `goasp_annot.dat`, and of the `blastdbcmd -entry all` output of
 * its `goasp.fasta` database) and writes the text each call returns. Only the accessions and an MD5 of
 * each sequence are kept, so memory grows with the proteins, not with the residues.
 */

export const METASTUDENT_ASPECTS = [
  { folder: 'MFO', aspect: 'F' },
  { folder: 'BPO', aspect: 'P' },
  { folder: 'CCO', aspect: 'C' },
] as const satisfies readonly { folder: string; aspect: GafAspect }[];

export type MetastudentFolder = (typeof METASTUDENT_ASPECTS)[number]['folder'];

/**
 * Column 6 of every line. The source names no paper or GO_REF per annotation, and the service's own
 * SVC_REF numbers mean its predictions, so the reference is the data set itself, declared in the header.
 */
export const METASTUDENT_GAF_REFERENCE = 'metastudent:dataset_201401';

/** Column 14: the release the data set was taken from (2014-01); no annotation carries its own date. */
export const METASTUDENT_GAF_DATE = '20140101';

/**
 * GAF 2.2's default relation per aspect, as the service writes it for its own predictions
 * (libs/domain gaf-prediction): the source records no relation.
 */
const RELATION: Record<GafAspect, string> = { F: 'enables', P: 'involved_in', C: 'located_in' };

export interface AnnotationEntry {
  accession: string;
  /** Each GO id once, in the order first given. */
  goIds: string[];
  /** GO ids the line gave more than once, counted per repeat. */
  repeats: number;
}

/** One `goasp_annot.dat` line: accession, then GO ids, tab-separated, repeats allowed; null when blank. */
export function parseAnnotationLine(line: string): AnnotationEntry | null {
  const text = line.replace(/\r$/, '');
  if (text.trim() === '') return null;
  const [accession = '', ...cells] = text.split('\t');
  if (!isUniProtAccession(accession)) throw new Error(`'${accession}' is not a UniProt accession`);
  const goIds = new Set<string>();
  let given = 0;
  for (const cell of cells) {
    if (cell === '') continue;
    if (!GO_ID_PATTERN.test(cell)) throw new Error(`'${cell}' of ${accession} is not a GO id`);
    goIds.add(cell);
    given += 1;
  }
  if (goIds.size === 0) throw new Error(`${accession} has no GO id`);
  return { accession, goIds: [...goIds], repeats: given - goIds.size };
}

/** The accession of a title of the metastudent BLAST databases, `ACCESSION|GO:...,GO:...` (without '>'). */
export function parseBlastTitle(title: string): string {
  const accession = title.trim().split(/[|\s]/, 1)[0] ?? '';
  if (!isUniProtAccession(accession)) throw new Error(`title '${title}' does not start with an accession`);
  return accession;
}

/**
 * `sp|ACC|`: the FASTA reader keys `sp|ACC|NAME` on the accession, and the UniProt header parser reads
 * it as a reviewed (Swiss-Prot) entry. The entry name is left empty and no OX= is written: the source
 * records neither, and the parser reads an empty name as unknown rather than storing a made-up one.
 */
export function metastudentFastaHeader(accession: string): string {
  return `sp|${accession}|`;
}

export interface MetastudentAspectCounts {
  /** Proteins of the aspect's annotation file. */
  annotatedProteins: number;
  /** GAF lines written: unique (accession, GO id) pairs of the aspect. */
  annotationLines: number;
  /** GO ids a line repeated (dropped). */
  repeatedGoIds: number;
  /** Records of the aspect's sequence database. */
  sequences: number;
  /** Of those, proteins whose sequence no earlier aspect gave (written to the FASTA). */
  newProteins: number;
  annotatedWithoutSequence: number;
  sequencesWithoutAnnotation: number;
}

export interface MetastudentSummary {
  /** FASTA records: unique accessions over the three aspects. */
  proteins: number;
  annotationLines: number;
  aspects: Record<MetastudentFolder, MetastudentAspectCounts>;
}

const emptyCounts = (): MetastudentAspectCounts => ({
  annotatedProteins: 0,
  annotationLines: 0,
  repeatedGoIds: 0,
  sequences: 0,
  newProteins: 0,
  annotatedWithoutSequence: 0,
  sequencesWithoutAnnotation: 0,
});

interface PendingSequence {
  aspect: GafAspect;
  accession: string;
  chunks: string[];
}

const ANNOTATED: Record<GafAspect, number> = { F: 1, P: 2, C: 4 };
const SEQUENCED: Record<GafAspect, number> = { F: 8, P: 16, C: 32 };
const RESIDUES = /^[A-Z]+$/;

/** The GAF header: what the data set is and which columns it does not record. */
export function metastudentGafHeader(input: { generated: string }): string {
  const lines = [
    ...formatGafHeader({
      'generated-by': 'svc-protein-function tools/data/metastudent.ts',
      'date-generated': input.generated,
      source:
        'Debian package metastudent-data, dataset_201401 ({MFO,BPO,CCO}/goasp_annot.dat): UniProtKB/Swiss-Prot 2014-01 proteins with GO annotations',
      evidence:
        'not recorded in the source; every line is marked IEA for that reason, not because the annotation was inferred electronically',
      reference: `${METASTUDENT_GAF_REFERENCE} = the metastudent-data dataset_201401 annotation files (no per-annotation reference is recorded)`,
      date: `${METASTUDENT_GAF_DATE} on every line = the Swiss-Prot release of the data set (2014-01), not the date of the annotation`,
      taxon: `not recorded in the source; every line has taxon:${UNIDENTIFIED_TAXON} (NCBI "unidentified")`,
      relation:
        'not recorded in the source; the GAF 2.2 default of the aspect (enables, involved_in, located_in)',
    }),
    '! Transfers from this file need donor_evidence "all": the default donors are experimental codes only.',
  ];
  return lines.map((line) => `${line}\n`).join('');
}

/**
 * The running conversion: annotation lines become GAF lines (one per unique accession, GO id and
 * aspect), sequence lines become FASTA records (one per unique accession; a second, different sequence
 * for an accession is an error naming it). The annotations and the sequences may be fed in any order,
 * even interleaved, but the sequences one aspect at a time.
 */
export class MetastudentConversion {
  /** Per accession, a bit for each aspect that annotates it and for each that gives its sequence. */
  private readonly seen = new Map<string, number>();
  private readonly digests = new Map<string, string>();
  private readonly counts = new Map<GafAspect, MetastudentAspectCounts>();
  private pending: PendingSequence | null = null;
  private annotationLines = 0;

  /** GAF lines (each ending in '\n') for one line of the aspect's `goasp_annot.dat`. */
  annotationLine(aspect: GafAspect, line: string): string {
    const entry = parseAnnotationLine(line);
    if (entry === null) return '';
    this.mark(entry.accession, ANNOTATED[aspect], `annotations of aspect ${aspect}`);
    const counts = this.countsOf(aspect);
    counts.annotatedProteins += 1;
    counts.annotationLines += entry.goIds.length;
    counts.repeatedGoIds += entry.repeats;
    this.annotationLines += entry.goIds.length;
    return entry.goIds.map((goId) => `${metastudentGafLine(entry.accession, goId, aspect)}\n`).join('');
  }

  /** A line of `blastdbcmd -entry all` output; returns the FASTA record it completes, if any. */
  sequenceLine(aspect: GafAspect, line: string): string {
    if (this.pending !== null && this.pending.aspect !== aspect)
      throw new Error(`sequences of aspect ${aspect} before the end of aspect ${this.pending.aspect}`);
    const text = line.trim();
    if (text === '') return '';
    if (text.startsWith('>')) {
      const done = this.closeSequence();
      this.pending = { aspect, accession: parseBlastTitle(text.slice(1)), chunks: [] };
      return done;
    }
    if (this.pending === null) throw new Error(`sequence text before the first title in aspect ${aspect}`);
    // blastdbcmd writes upper-case letters; the full check only runs to name what else is there.
    if (!RESIDUES.test(text)) {
      const invalid = invalidResidueCharacters(text);
      if (invalid !== '')
        throw new Error(`invalid residue letters '${invalid}' in ${this.pending.accession}`);
    }
    this.pending.chunks.push(text.toUpperCase());
    return '';
  }

  /** The end of an aspect's sequences: its last FASTA record, if any. */
  endSequences(aspect: GafAspect): string {
    if (this.pending !== null && this.pending.aspect !== aspect)
      throw new Error(`end of aspect ${aspect} while reading aspect ${this.pending.aspect}`);
    return this.closeSequence();
  }

  summary(): MetastudentSummary {
    const aspects = Object.fromEntries(
      METASTUDENT_ASPECTS.map(({ folder, aspect }) => {
        let annotatedWithoutSequence = 0;
        let sequencesWithoutAnnotation = 0;
        for (const mask of this.seen.values()) {
          const annotated = (mask & ANNOTATED[aspect]) !== 0;
          const sequenced = (mask & SEQUENCED[aspect]) !== 0;
          if (annotated && !sequenced) annotatedWithoutSequence += 1;
          if (sequenced && !annotated) sequencesWithoutAnnotation += 1;
        }
        return [folder, { ...this.countsOf(aspect), annotatedWithoutSequence, sequencesWithoutAnnotation }];
      }),
    ) as Record<MetastudentFolder, MetastudentAspectCounts>;
    return { proteins: this.digests.size, annotationLines: this.annotationLines, aspects };
  }

  private closeSequence(): string {
    const record = this.pending;
    this.pending = null;
    if (record === null) return '';
    const { aspect, accession } = record;
    const sequence = record.chunks.join('');
    if (sequence === '') throw new Error(`${accession} has no sequence in aspect ${aspect}`);
    this.mark(accession, SEQUENCED[aspect], `sequences of aspect ${aspect}`);
    const counts = this.countsOf(aspect);
    counts.sequences += 1;
    const digest = md5Hex(sequence);
    const earlier = this.digests.get(accession);
    if (earlier !== undefined) {
      if (earlier !== digest)
        throw new Error(`${accession} has a different sequence in aspect ${aspect} than before`);
      return '';
    }
    this.digests.set(accession, digest);
    counts.newProteins += 1;
    return formatFastaRecord(metastudentFastaHeader(accession), sequence, 60);
  }

  /** The source lists a protein once per aspect in each file; a second time is a format it does not have. */
  private mark(accession: string, bit: number, where: string): void {
    const mask = this.seen.get(accession) ?? 0;
    if ((mask & bit) !== 0) throw new Error(`${accession} is listed twice in the ${where}`);
    this.seen.set(accession, mask | bit);
  }

  private countsOf(aspect: GafAspect): MetastudentAspectCounts {
    let counts = this.counts.get(aspect);
    if (counts === undefined) this.counts.set(aspect, (counts = emptyCounts()));
    return counts;
  }
}

/** The fields of one line: only the accession and the GO id vary. */
export function metastudentGafFields(accession: string, goId: string, aspect: GafAspect): GafLineFields {
  return {
    db: 'UniProtKB',
    dbObjectId: accession,
    dbObjectSymbol: accession,
    relation: RELATION[aspect],
    goId,
    dbReference: METASTUDENT_GAF_REFERENCE,
    evidenceCode: 'IEA',
    aspect,
    dbObjectType: 'protein',
    taxa: [UNIDENTIFIED_TAXON],
    date: METASTUDENT_GAF_DATE,
    assignedBy: 'UniProt',
  };
}

const templates = new Map<GafAspect, readonly string[]>();

/**
 * One GAF 2.2 line, the same as formatGafLine of its fields. formatGafLine parses every line back
 * (about 4 us), most of the run for 4.5 M lines; here each aspect's line is formatted, and so checked,
 * once, and the accession and GO id are put in after the reader's own patterns accept them.
 */
export function metastudentGafLine(accession: string, goId: string, aspect: GafAspect): string {
  if (!isUniProtAccession(accession)) throw new Error(`'${accession}' is not a UniProt accession`);
  if (!GO_ID_PATTERN.test(goId)) throw new Error(`'${goId}' of ${accession} is not a GO id`);
  let template = templates.get(aspect);
  if (template === undefined) {
    template = formatGafLine(metastudentGafFields('A00000', 'GO:0000000', aspect)).split('\t');
    templates.set(aspect, template);
  }
  const columns = [...template];
  columns[1] = accession;
  columns[2] = accession;
  columns[4] = goId;
  return columns.join('\t');
}
