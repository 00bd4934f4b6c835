import { DataSource } from 'typeorm';
import { bulkInsert } from '../bulk';

/** InterPro entries' GO terms (interpro2go), the source of the InterPro-based features. */
export class InterProRepository {
  constructor(private readonly db: DataSource) {}

  /** Adds or refreshes the mappings of one interpro2go release, in one transaction. */
  async upsertGoMappings(
    mappings: readonly { iprAccession: string; goId: string }[],
    sourceVersion: string,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await bulkInsert(tx, {
        table: 'interpro_go_mapping',
        columns: [
          { name: 'ipr_accession', type: 'text' },
          { name: 'go_id', type: 'text' },
          { name: 'evidence', type: 'text' },
          { name: 'source_version', type: 'text' },
        ],
        rows: mappings.map((m) => [m.iprAccession, m.goId, 'IEA', sourceVersion]),
        onConflict:
          'ON CONFLICT (ipr_accession, go_id) DO UPDATE SET source_version = EXCLUDED.source_version',
      });
    });
  }
}
