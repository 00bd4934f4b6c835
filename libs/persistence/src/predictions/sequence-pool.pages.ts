import { Db, queryOne, queryTextRows } from '../sql';
import type { SequencePoolPage } from './reference-pool.repository';

/**
 * One keyset page of a homology pool (see `ReferencePoolRepository.streamSequencePool`): the donor
 * annotations of the proteins from `from` (inclusive) to the page's bound (exclusive), with each
 * protein's sequence, a protein's rows together; and the bound, null on the last page.
 */
export async function readSequencePoolPage(
  tx: Db,
  input: { annotationSetId: string; codes: readonly string[] | null; from: string | null; pageRows: number },
): Promise<{ page: SequencePoolPage[]; bound: string | null }> {
  const { annotationSetId, codes, from, pageRows } = input;
  const bound = await pageBound(tx, annotationSetId, from, pageRows);
  // [accession, go_term_id, go_id, aspect, evidence_code, qualifier], a protein's rows together.
  const rows = await queryTextRows(
    tx,
    `SELECT a.protein_accession, a.go_term_id, t.go_id, t.aspect, a.evidence_code, a.qualifier
       FROM protein_go_annotation a JOIN go_term t ON t.id = a.go_term_id
      WHERE a.annotation_set_id = $1 AND NOT a.is_not AND t.aspect IS NOT NULL
        AND ($2::text[] IS NULL OR a.evidence_code = ANY($2::text[]))
        AND ($3::text IS NULL OR a.protein_accession >= $3)
        AND ($4::text IS NULL OR a.protein_accession < $4)
      ORDER BY a.protein_accession, a.id`,
    [annotationSetId, codes, from, bound],
  );
  const accessions = [...new Set(rows.map((r) => r[0]!))];
  const proteins = new Map(
    (
      await queryTextRows(
        tx,
        `SELECT p.accession, p.canonical_accession, p.sequence_id, s.sequence
                 FROM protein p JOIN sequence s ON s.id = p.sequence_id WHERE p.accession = ANY($1::text[])`,
        [accessions],
      )
    ).map((p) => [p[0]!, p]),
  );
  const page: SequencePoolPage[] = [];
  let current: { accession: string; entry: SequencePoolPage | null } | null = null;
  for (const [accession, goTermId, goId, aspect, code, qualifier] of rows) {
    if (current === null || current.accession !== accession) {
      const protein = proteins.get(accession!);
      const entry: SequencePoolPage | null =
        protein === undefined
          ? null
          : {
              accession: accession!,
              canonicalAccession: protein[1]!,
              sequenceId: Number(protein[2]),
              sequence: protein[3]!,
              goTermIds: [],
              goIds: [],
              aspects: [],
              evidenceCodes: [],
              qualifiers: [],
            };
      if (entry !== null) page.push(entry);
      current = { accession: accession!, entry };
    }
    const entry = current.entry;
    if (entry === null) continue;
    entry.goTermIds.push(Number(goTermId));
    entry.goIds.push(goId!);
    entry.aspects.push(aspect as 'F' | 'P' | 'C');
    entry.evidenceCodes.push(code!);
    entry.qualifiers.push(qualifier ?? null);
  }
  return { page, bound };
}

/**
 * Where a page that starts at `from` ends (exclusive): the accession about `rows` annotation rows on
 * (an index-only walk), moved past `from` when one protein alone holds that many; null at the end.
 */
async function pageBound(
  tx: Db,
  annotationSetId: string,
  from: string | null,
  rows: number,
): Promise<string | null> {
  const at = await queryOne<{ accession: string }>(
    tx,
    `SELECT protein_accession AS accession FROM protein_go_annotation
        WHERE annotation_set_id = $1 AND ($2::text IS NULL OR protein_accession >= $2)
        ORDER BY protein_accession OFFSET $3 LIMIT 1`,
    [annotationSetId, from, rows],
  );
  if (at === null || at.accession !== from) return at?.accession ?? null;
  const next = await queryOne<{ accession: string }>(
    tx,
    `SELECT protein_accession AS accession FROM protein_go_annotation
        WHERE annotation_set_id = $1 AND protein_accession > $2
        ORDER BY protein_accession LIMIT 1`,
    [annotationSetId, from],
  );
  return next?.accession ?? null;
}
