import { WorkerDefinition } from '@svc/bootstrap';
import { loadNcbiTaxonomyOperation } from './operations/load-ncbi-taxonomy.operation';
import { buildGoCooccurrenceOperation } from './operations/build-go-cooccurrence.operation';
import { fetchUniprotMetadataOperation } from './operations/fetch-uniprot-metadata.operation';
import { insertProteinsOperation } from './operations/insert-proteins.operation';
import { installReferenceOperation } from './operations/install-reference.operation';
import { loadGoaAnnotationsOperation } from './operations/load-goa-annotations.operation';
import { loadInterproGoMappingOperation } from './operations/load-interpro-go-mapping.operation';
import { loadOntologySnapshotOperation } from './operations/load-ontology-snapshot.operation';
import { loadQuickGoAnnotationsOperation } from './operations/load-quickgo-annotations.operation';
import { pingOperation } from './operations/ping.operation';
import { purgeExpiredResultsOperation } from './operations/purge-expired-results.operation';
import { startRetentionSchedule } from './retention-schedule';

/** Reference data loading and the retention purge (svc.jobs), the ping probe (svc.ping). */
export const INGESTION_WORKER: WorkerDefinition = {
  name: 'ingestion-worker',
  jobQueues: ['svc.ping', 'svc.jobs'],
  operations: [
    pingOperation,
    loadOntologySnapshotOperation,
    loadGoaAnnotationsOperation,
    loadQuickGoAnnotationsOperation,
    insertProteinsOperation,
    installReferenceOperation,
    fetchUniprotMetadataOperation,
    buildGoCooccurrenceOperation,
    loadInterproGoMappingOperation,
    loadNcbiTaxonomyOperation,
    purgeExpiredResultsOperation,
  ],
  background: [(infra) => startRetentionSchedule(infra)],
};
