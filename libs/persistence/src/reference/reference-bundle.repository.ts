import { DataSource } from 'typeorm';
import { Db, isoColumn, queryOne, queryRows } from '../sql';

/** One file of an installed reference: where it came from, its digest and how that was checked. */
export interface InstalledFile {
  role: string;
  source: string;
  sha256: string;
  bytes: number;
  /** `pinned` (the catalog), `mirror` (the mirror's SHA256SUMS) or `unverified` (none published). */
  checked: 'pinned' | 'mirror' | 'unverified';
}

export interface InstalledReference {
  id: string;
  name: string;
  content_sha256: string;
  ontology_snapshot_id: string;
  ontology_version: string;
  annotation_set_id: string;
  annotation_set_label: string;
  files: InstalledFile[];
  stats: Record<string, unknown>;
  mirror: string | null;
  job_id: string | null;
  installed_at: string;
}

const COLUMNS = `b.id, b.name, b.content_sha256, b.ontology_snapshot_id, o.obo_version AS ontology_version,
  b.annotation_set_id, (a.source || ' ' || a.source_version) AS annotation_set_label, b.files, b.stats, b.mirror,
  b.job_id, ${isoColumn('b.installed_at', 'installed_at')}`;
const FROM = `reference_bundle b JOIN ontology_snapshot o ON o.id = b.ontology_snapshot_id
  JOIN annotation_set a ON a.id = b.annotation_set_id`;

/** Installed references: one row per (name, content); the newest install of a name is its current version. */
export class ReferenceBundleRepository {
  constructor(private readonly db: DataSource) {}

  /** The install of this name with exactly this content, if any (a rerun reuses it). */
  findInstalled(name: string, contentSha256: string, db: Db = this.db): Promise<InstalledReference | null> {
    return queryOne<InstalledReference>(
      db,
      `SELECT ${COLUMNS} FROM ${FROM} WHERE b.name = $1 AND b.content_sha256 = $2`,
      [name, contentSha256],
    );
  }

  async record(input: {
    name: string;
    contentSha256: string;
    ontologySnapshotId: string;
    annotationSetId: string;
    files: InstalledFile[];
    stats: Record<string, unknown>;
    mirror: string | null;
    jobId: string;
  }): Promise<InstalledReference> {
    const row = await queryOne<{ id: string }>(
      this.db,
      `INSERT INTO reference_bundle (name, content_sha256, ontology_snapshot_id, annotation_set_id, files, stats, mirror, job_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (name, content_sha256) DO UPDATE SET installed_at = clock_timestamp(), job_id = EXCLUDED.job_id
       RETURNING id`,
      [
        input.name,
        input.contentSha256,
        input.ontologySnapshotId,
        input.annotationSetId,
        JSON.stringify(input.files),
        JSON.stringify(input.stats),
        input.mirror,
        input.jobId,
      ],
    );
    return (await queryOne<InstalledReference>(this.db, `SELECT ${COLUMNS} FROM ${FROM} WHERE b.id = $1`, [
      row!.id,
    ]))!;
  }

  /** Every install, newest first (a name's first row is its current version). */
  list(): Promise<InstalledReference[]> {
    return queryRows<InstalledReference>(
      this.db,
      `SELECT ${COLUMNS} FROM ${FROM} ORDER BY b.installed_at DESC`,
    );
  }

  /** The newest install of any name: the reference one-click annotation uses. */
  newest(): Promise<InstalledReference | null> {
    return queryOne<InstalledReference>(
      this.db,
      `SELECT ${COLUMNS} FROM ${FROM} WHERE a.annotation_count > 0 ORDER BY b.installed_at DESC LIMIT 1`,
    );
  }

  /** The install that made this annotation set, if any (names the reference a prediction used). */
  ofAnnotationSet(annotationSetId: string): Promise<InstalledReference | null> {
    return queryOne<InstalledReference>(
      this.db,
      `SELECT ${COLUMNS} FROM ${FROM} WHERE b.annotation_set_id = $1 ORDER BY b.installed_at DESC LIMIT 1`,
      [annotationSetId],
    );
  }
}
