import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { ReferenceSummary } from '@svc/domain';
import { ProteinRepository } from '../reference/protein.repository';
import { useRunDatabase } from '../../testing/repository-test-support';
import {
  annotationRow,
  goRelease,
  insertAnnotationSet,
  insertPredictionSet,
  insertSnapshot,
  proteinEntry,
  saveEmbeddingConfig,
} from '../../testing/repository-fixtures';
import { PredictionProvenanceRepository } from './prediction-provenance.repository';

// PredictionProvenanceRepository against the run's PostgreSQL: the reference a prediction sees
// (donors with a sequence, per aspect and species, by the donor rule), and per-query summaries
// giving the set's coverage.

let db: DataSource;
let provenance: PredictionProvenanceRepository;
useRunDatabase((opened) => {
  db = opened;
  provenance = new PredictionProvenanceRepository(db);
});

const tag = `PV${randomBytes(4).toString('hex').toUpperCase()}`;

describe('PredictionProvenanceRepository', () => {
  let annotationSetId: string;
  let snapshotId: string;
  let oboVersion: string;

  beforeAll(async () => {
    const snapshot = await insertSnapshot(
      db,
      goRelease([
        ['GO:0000001', 'F'],
        ['GO:0000002', 'P'],
        ['GO:0000003', 'C'],
      ]),
    );
    snapshotId = snapshot.id;
    oboVersion = snapshot.oboVersion;
    const t = (id: string) => snapshot.terms.get(id)!;
    // A: MF (IDA) and BP (IEA), human; B: CC (IMP), mouse; C: no sequence; D: only a NOT annotation.
    await new ProteinRepository(db).storeWithSequences([
      proteinEntry(`${tag}-A`, 'MKTAYIAKQR'),
      proteinEntry(`${tag}-B`, 'MKTAYIAKQG', { taxonomyId: '10090' }),
      proteinEntry(`${tag}-C`, null),
      proteinEntry(`${tag}-D`, 'MKTAYIAKQW'),
    ]);
    annotationSetId = await insertAnnotationSet(
      db,
      snapshotId,
      [
        annotationRow(`${tag}-A`, t('GO:0000001'), 'IDA', { taxonId: '9606' }),
        annotationRow(`${tag}-A`, t('GO:0000002'), 'IEA', { taxonId: 'taxon:9606' }),
        annotationRow(`${tag}-B`, t('GO:0000003'), 'IMP'),
        annotationRow(`${tag}-C`, t('GO:0000001'), 'IDA'),
        annotationRow(`${tag}-D`, t('GO:0000001'), 'IDA', { isNot: true }),
      ],
      'goa',
      `${tag}-v1`,
    );
  });

  it('describes the reference: donors with a sequence per aspect and species, by the donor rule', async () => {
    const base = {
      reference_name: null,
      annotation_set_id: annotationSetId,
      annotation_set_label: `goa ${tag}-v1`,
      annotation_source_version: `${tag}-v1`,
      ontology_snapshot_id: snapshotId,
      ontology_version: oboVersion,
    };
    expect(await provenance.describeReference(annotationSetId, 'experimental')).toEqual({
      ...base,
      donor_evidence: 'experimental',
      donor_proteins: 2,
      donor_proteins_per_aspect: { F: 1, P: 0, C: 1 },
      donor_species: [
        { taxon: 'taxon:10090', proteins: 1 },
        { taxon: 'taxon:9606', proteins: 1 },
      ],
    });
    expect(await provenance.describeReference(annotationSetId, 'all')).toMatchObject({
      donor_evidence: 'all',
      donor_proteins: 2,
      donor_proteins_per_aspect: { F: 1, P: 1, C: 1 },
    });
  });

  it('stores query summaries once per query and gives the coverage; none recorded reads null', async () => {
    const configId = await saveEmbeddingConfig(db);
    const setId = await insertPredictionSet(db, { configId, annotationSetId, snapshotId });
    expect(await provenance.coverage(setId)).toBeNull();
    expect(await provenance.reference(setId)).toBeNull();
    const summaries = [
      { accession: 'Q1', homologs: 12, best_identity: 0.91, known_terms: 0 },
      { accession: 'Q2', homologs: 0, best_identity: null, known_terms: 0 },
      { accession: 'Q3', homologs: 0, best_identity: null, known_terms: 4 },
      { accession: 'Q4', homologs: 0, best_identity: null, known_terms: 0 },
    ];
    await provenance.writeQuerySummaries(setId, summaries);
    // A redelivered write adds nothing.
    await provenance.writeQuerySummaries(setId, summaries.slice(0, 1));
    expect(await provenance.coverage(setId)).toEqual({
      queries: 4,
      with_homolog: 2,
      without_homolog: 2,
      without_homolog_share: 0.5,
      known: 1,
    });
    const read = await provenance.querySummaries(setId);
    expect(read.get('Q1')).toEqual(summaries[0]);
    expect(read.size).toBe(4);
    const reference = {
      ...(await provenance.describeReference(annotationSetId, 'experimental'))!,
      search_backend: 'diamond',
      blend_version: 'homology-blend-v1',
      blend_donor_evidence: 'experimental',
      self_transfer: false,
    } satisfies ReferenceSummary;
    await provenance.setReference(setId, reference);
    expect(await provenance.reference(setId)).toEqual(reference);
  });
});
