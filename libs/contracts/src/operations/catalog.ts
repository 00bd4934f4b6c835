import { QueueName } from '../queues';
import { Role } from '../roles';
import { PingPayload } from './ping.payload';
import {
  fetchUniprotMetadataPolicy,
  PayloadRefusal,
  pingPolicy,
  PolicyContext,
  wholePoolPolicy,
} from './payload-policy';
import {
  BuildGoCooccurrencePayload,
  FetchUniprotMetadataPayload,
  InsertProteinsPayload,
  InstallReferencePayload,
  LoadGoaAnnotationsPayload,
  LoadInterproGoMappingPayload,
  LoadOntologySnapshotPayload,
  LoadQuickGoAnnotationsPayload,
} from './reference-data.payloads';
import { ComputeEmbeddingsPayload } from './embedding.payloads';
import { LoadNcbiTaxonomyPayload, PredictGoTermsPayload } from './prediction.payloads';
import { GenerateEvaluationSetPayload, RunCafaEvaluationPayload } from './evaluation.payloads';
import { ExportResearchDatasetPayload } from './dataset.payloads';
import { PurgeExpiredResultsPayload } from './retention.payloads';

export type PayloadClass = new () => object;

/**
 * What the gateway and the workers agree on for one operation: its payload schema, the queue it is
 * published to by default, the role a caller needs to queue it through POST /jobs, and whether it is a
 * tracked job (job queues) or a step of a coordinator (operation queues).
 */
export interface OperationSpec<P extends object = object> {
  readonly name: string;
  readonly queue: QueueName;
  readonly roleFloor: Role;
  readonly kind: 'job' | 'step';
  /** The payload's class: it validates a payload and types the operation that runs it. */
  readonly payload: new () => P;
  /** Subject to the per-user daily quota of heavy operations. */
  readonly quota?: 'jobs';
  /** What the submitter's role may ask of the payload beyond its schema (caps, staff-only values). */
  policy?(payload: P, context: PolicyContext): PayloadRefusal | null;
}

export const PING: OperationSpec<PingPayload> = {
  name: 'ping',
  queue: 'svc.ping',
  roleFloor: 'researcher',
  kind: 'job',
  payload: PingPayload,
  policy: pingPolicy,
};

const referenceData = <P extends object>(
  name: string,
  payload: new () => P,
  roleFloor: Role = 'operator',
): OperationSpec<P> => ({
  name,
  queue: 'svc.jobs',
  roleFloor,
  kind: 'job',
  payload,
});

export const LOAD_ONTOLOGY_SNAPSHOT = referenceData('load_ontology_snapshot', LoadOntologySnapshotPayload);
export const LOAD_GOA_ANNOTATIONS = referenceData('load_goa_annotations', LoadGoaAnnotationsPayload);
export const LOAD_QUICKGO_ANNOTATIONS = referenceData(
  'load_quickgo_annotations',
  LoadQuickGoAnnotationsPayload,
);
export const INSERT_PROTEINS = referenceData('insert_proteins', InsertProteinsPayload);
/** A named reference of the catalog, its files staged and checked, then loaded (docs/reference.md). */
export const INSTALL_REFERENCE = referenceData('install_reference', InstallReferencePayload);
export const FETCH_UNIPROT_METADATA: OperationSpec<FetchUniprotMetadataPayload> = {
  ...referenceData('fetch_uniprot_metadata', FetchUniprotMetadataPayload, 'researcher'),
  policy: fetchUniprotMetadataPolicy,
};
export const BUILD_GO_COOCCURRENCE = referenceData('build_go_cooccurrence', BuildGoCooccurrencePayload);
export const LOAD_INTERPRO_GO_MAPPING = referenceData(
  'load_interpro_go_mapping',
  LoadInterproGoMappingPayload,
);

export const COMPUTE_EMBEDDINGS: OperationSpec<ComputeEmbeddingsPayload> = {
  name: 'compute_embeddings',
  queue: 'svc.embeddings',
  roleFloor: 'operator',
  kind: 'job',
  payload: ComputeEmbeddingsPayload,
  policy: wholePoolPolicy,
};

export const PREDICT_GO_TERMS: OperationSpec<PredictGoTermsPayload> = {
  name: 'predict_go_terms',
  queue: 'svc.predictions',
  roleFloor: 'researcher',
  kind: 'job',
  payload: PredictGoTermsPayload,
  policy: wholePoolPolicy,
};

export const GENERATE_EVALUATION_SET: OperationSpec<GenerateEvaluationSetPayload> = {
  name: 'generate_evaluation_set',
  queue: 'svc.evaluations',
  roleFloor: 'operator',
  kind: 'job',
  payload: GenerateEvaluationSetPayload,
};

export const RUN_CAFA_EVALUATION: OperationSpec<RunCafaEvaluationPayload> = {
  name: 'run_cafa_evaluation',
  queue: 'svc.evaluations',
  roleFloor: 'operator',
  kind: 'job',
  payload: RunCafaEvaluationPayload,
  quota: 'jobs',
};

export const EXPORT_RESEARCH_DATASET: OperationSpec<ExportResearchDatasetPayload> = {
  name: 'export_research_dataset',
  queue: 'svc.training',
  roleFloor: 'operator',
  kind: 'job',
  payload: ExportResearchDatasetPayload,
  quota: 'jobs',
};

export const LOAD_NCBI_TAXONOMY = referenceData('load_ncbi_taxonomy', LoadNcbiTaxonomyPayload);

/** The retention purge of expired unlisted results; the ingestion worker also queues it itself every hour. */
export const PURGE_EXPIRED_RESULTS = referenceData('purge_expired_results', PurgeExpiredResultsPayload);

/** Every operation that some worker of this build hosts. POST /jobs rejects other names with 422. */
export const OPERATION_CATALOG: readonly OperationSpec[] = [
  PING,
  LOAD_ONTOLOGY_SNAPSHOT,
  LOAD_GOA_ANNOTATIONS,
  LOAD_QUICKGO_ANNOTATIONS,
  INSERT_PROTEINS,
  INSTALL_REFERENCE,
  FETCH_UNIPROT_METADATA,
  BUILD_GO_COOCCURRENCE,
  LOAD_INTERPRO_GO_MAPPING,
  COMPUTE_EMBEDDINGS,
  PREDICT_GO_TERMS,
  LOAD_NCBI_TAXONOMY,
  GENERATE_EVALUATION_SET,
  RUN_CAFA_EVALUATION,
  EXPORT_RESEARCH_DATASET,
  PURGE_EXPIRED_RESULTS,
];

/** The operation names, as the contract's `OperationName` enum lists them. */
export const OPERATION_NAMES: readonly string[] = OPERATION_CATALOG.map((spec) => spec.name);

export function findOperationSpec(name: string): OperationSpec | undefined {
  return OPERATION_CATALOG.find((spec) => spec.name === name);
}

/**
 * Where a job was submitted. `api`: POST /jobs and the dedicated routes, at the catalogue's floor.
 * `annotate`: the guest-facing annotation entry points (one-click annotation and POST
 * /embeddings/predict), which let any caller embed and predict their own sequences under the
 * `annotate_sequences` quota. `system`: jobs the service queues itself.
 */
export const JOB_ENTRY_POINTS = ['api', 'annotate', 'system'] as const;
export type JobEntryPoint = (typeof JOB_ENTRY_POINTS)[number];

const ENTRY_POINT_FLOORS: Readonly<Record<JobEntryPoint, Readonly<Record<string, Role>>>> = {
  api: {},
  annotate: { compute_embeddings: 'guest', predict_go_terms: 'guest' },
  system: {},
};

/** The lowest role that may queue an operation through an entry point. */
export function roleFloorFor(spec: OperationSpec, via: JobEntryPoint): Role {
  return ENTRY_POINT_FLOORS[via][spec.name] ?? spec.roleFloor;
}
