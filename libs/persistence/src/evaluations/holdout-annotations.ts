import { DataSource } from 'typeorm';
import { HoldoutAnnotation } from '@svc/domain';
import { queryRows } from '../sql';

/** Every annotation of a set in the shape the temporal-holdout split reads. */
export async function loadHoldoutAnnotations(
  db: DataSource,
  annotationSetId: string,
): Promise<HoldoutAnnotation[]> {
  const rows = await queryRows<{
    protein_accession: string;
    go_id: string;
    evidence_code: string;
    is_not: boolean;
    qualifier: string | null;
  }>(
    db,
    `SELECT protein_accession, go_id, evidence_code, is_not, qualifier FROM protein_go_annotation WHERE annotation_set_id = $1`,
    [annotationSetId],
  );
  return rows.map((r) => ({
    protein: r.protein_accession,
    goId: r.go_id,
    evidence: r.evidence_code,
    isNot: r.is_not,
    qualifier: r.qualifier,
  }));
}
