import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { InterProRepository } from './interpro.repository';
import { useRunDatabase } from '../../testing/repository-test-support';

// InterProRepository against the run's PostgreSQL: a release's interpro2go mappings are added or
// refreshed (never duplicated), all in one transaction.

let db: DataSource;
let interpro: InterProRepository;

useRunDatabase((opened) => {
  db = opened;
  interpro = new InterProRepository(db);
});

/** A prefix no other test uses: InterPro accessions are unique per (entry, term) across the table. */
const prefix = () => `IPRT${randomBytes(4).toString('hex')}`;

async function stored(iprPrefix: string) {
  return db.query<{ ipr_accession: string; go_id: string; evidence: string; source_version: string }[]>(
    `SELECT ipr_accession, go_id, evidence, source_version FROM interpro_go_mapping
      WHERE ipr_accession LIKE $1 || '%' ORDER BY ipr_accession, go_id`,
    [iprPrefix],
  );
}

describe('InterProRepository.upsertGoMappings', () => {
  it('adds a release’s mappings as IEA evidence with the release version', async () => {
    const ipr = prefix();
    await interpro.upsertGoMappings(
      [
        { iprAccession: `${ipr}1`, goId: 'GO:0000001' },
        { iprAccession: `${ipr}1`, goId: 'GO:0000002' },
        { iprAccession: `${ipr}2`, goId: 'GO:0000001' },
      ],
      '2024/01',
    );
    expect(await stored(ipr)).toEqual([
      { ipr_accession: `${ipr}1`, go_id: 'GO:0000001', evidence: 'IEA', source_version: '2024/01' },
      { ipr_accession: `${ipr}1`, go_id: 'GO:0000002', evidence: 'IEA', source_version: '2024/01' },
      { ipr_accession: `${ipr}2`, go_id: 'GO:0000001', evidence: 'IEA', source_version: '2024/01' },
    ]);
  });

  it('a later release refreshes the pairs it lists, adds new ones and keeps the others', async () => {
    const ipr = prefix();
    await interpro.upsertGoMappings(
      [
        { iprAccession: `${ipr}1`, goId: 'GO:0000001' },
        { iprAccession: `${ipr}2`, goId: 'GO:0000002' },
      ],
      'v1',
    );
    await interpro.upsertGoMappings(
      [
        { iprAccession: `${ipr}1`, goId: 'GO:0000001' },
        { iprAccession: `${ipr}3`, goId: 'GO:0000003' },
      ],
      'v2',
    );
    expect((await stored(ipr)).map((r) => [r.ipr_accession, r.go_id, r.source_version])).toEqual([
      [`${ipr}1`, 'GO:0000001', 'v2'],
      [`${ipr}2`, 'GO:0000002', 'v1'],
      [`${ipr}3`, 'GO:0000003', 'v2'],
    ]);
    await interpro.upsertGoMappings([], 'v3');
    expect(await stored(ipr)).toHaveLength(3);
  });

  it('writes nothing of a release that fails part way (rows past the first 5000-row statement)', async () => {
    const ipr = prefix();
    const mappings = Array.from({ length: 5001 }, (_, i) => ({
      iprAccession: `${ipr}${String(i).padStart(5, '0')}`,
      goId: 'GO:0000001',
    }));
    mappings[5000] = { iprAccession: `${ipr}LAST`, goId: null as unknown as string };
    await expect(interpro.upsertGoMappings(mappings, 'broken')).rejects.toThrow(
      /null value in column "go_id"/,
    );
    expect(await stored(ipr)).toEqual([]);
  });
});
