import { DataSource } from 'typeorm';
import { GeneAnnotation } from '@svc/domain';
import { queryRows } from '../sql';

/** Every annotation of a set in the shape the temporal-holdout split reads, with its gene (DB Object Symbol). */
export async function loadHoldoutAnnotations(
  db: DataSource,
  annotationSetId: string,
): Promise<GeneAnnotation[]> {
  const rows = await queryRows<{
    protein_accession: string;
    go_id: string;
    evidence_code: string;
    is_not: boolean;
    qualifier: string | null;
    db_object_symbol: string | null;
  }>(
    db,
    `SELECT protein_accession, go_id, evidence_code, is_not, qualifier, db_object_symbol FROM protein_go_annotation WHERE annotation_set_id = $1`,
    [annotationSetId],
  );
  return rows.map((r) => ({
    protein: r.protein_accession,
    goId: r.go_id,
    evidence: r.evidence_code,
    isNot: r.is_not,
    qualifier: r.qualifier,
    gene: r.db_object_symbol,
  }));
}
