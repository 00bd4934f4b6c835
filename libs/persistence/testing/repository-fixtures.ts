import { randomUUID } from 'node:crypto';
import { UserView } from '@svc/contracts';
import {
  CanonicalEmbeddingConfig,
  EMBEDDING_RECIPE_DEFAULTS,
  GoAspect,
  md5Hex,
  OboDocument,
} from '@svc/domain';
import { DataSource } from 'typeorm';
import { EmbeddingRepository } from '../src/embeddings/embedding.repository';
import { NewUser, UserRepository } from '../src/identity/user.repository';
import { JobRepository, NewJob } from '../src/jobs/job.repository';
import { PredictionRow } from '../src/predictions/prediction-columns';
import { PredictionSetRecord, PredictionSetRepository } from '../src/predictions/prediction-set.repository';
import { AnnotationRepository, AnnotationRow } from '../src/reference/annotation.repository';
import { OntologyRepository, TermRef } from '../src/reference/ontology.repository';
import { ProteinInput } from '../src/reference/protein.repository';
import { QuerySetRepository } from '../src/reference/query-set.repository';

// Fixture builders shared by the repository tests of this library (spec files only; not exported by
// the library). Each states the common case; a test passes only what is particular to it.

/** A k-mer recipe with the default fields, a fresh id and no description; `extra` overrides. */
export function embeddingRecipe(extra: Partial<CanonicalEmbeddingConfig> = {}): CanonicalEmbeddingConfig {
  return {
    id: randomUUID(),
    model_name: 'kmer-test',
    model_backend: 'kmer',
    ...EMBEDDING_RECIPE_DEFAULTS,
    layer_indices: [...EMBEDDING_RECIPE_DEFAULTS.layer_indices],
    description: null,
    ...extra,
  };
}

/** Stores `embeddingRecipe(extra)` and gives its id. */
export async function saveEmbeddingConfig(
  db: DataSource,
  extra: Partial<CanonicalEmbeddingConfig> = {},
): Promise<string> {
  return (await new EmbeddingRepository(db).saveConfig(embeddingRecipe(extra))).config.id;
}

/** A GO release of these terms (named `name of <id>`, no namespace, parent or alt id). */
export function goRelease(terms: ReadonlyArray<readonly [id: string, aspect: GoAspect | null]>): OboDocument {
  return {
    header: { formatVersion: null, dataVersion: null, ontology: 'go', date: null },
    terms: terms.map(([id, aspect]) => ({
      id,
      name: `name of ${id}`,
      namespace: null,
      aspect,
      definition: null,
      isObsolete: false,
      altIds: [],
      parents: [],
    })),
    typedefs: [],
  };
}

/** Stores a release under a fresh version; gives the snapshot's id, version and terms by GO id. */
export async function insertSnapshot(
  db: DataSource,
  release: OboDocument,
): Promise<{ id: string; oboVersion: string; terms: Map<string, TermRef> }> {
  const ontologies = new OntologyRepository(db);
  const oboVersion = `test-${randomUUID()}`;
  const { snapshot } = await ontologies.saveSnapshot(release, oboVersion, 'file:///go.obo');
  return { id: snapshot.id, oboVersion, terms: await ontologies.termIndex(snapshot.id) };
}

/** A positive annotation of a protein with a term, every optional GAF column empty; `extra` overrides. */
export function annotationRow(
  protein: string,
  term: TermRef,
  evidenceCode: string,
  extra: Partial<AnnotationRow> = {},
): AnnotationRow {
  return {
    proteinAccession: protein,
    goTermId: term.id,
    goId: term.go_id,
    aspect: term.aspect,
    qualifier: null,
    isNot: false,
    evidenceCode,
    db: null,
    dbObjectSymbol: null,
    dbReference: null,
    withFrom: null,
    taxonId: null,
    annotationDate: null,
    assignedBy: null,
    annotationExtension: null,
    geneProductFormId: null,
    ...extra,
  };
}

/** Loads an annotation set of these rows in one batch; gives its id. */
export async function insertAnnotationSet(
  db: DataSource,
  snapshotId: string,
  rows: AnnotationRow[] = [],
  source: 'goa' | 'quickgo' = 'goa',
  sourceVersion = '1',
): Promise<string> {
  const { set } = await new AnnotationRepository(db).withinLoad(
    { source, sourceVersion, snapshotId, sourceUrl: null, jobId: null },
    async (load) => {
      await load.insert(rows);
      return { value: null, stats: {} };
    },
  );
  return set.id;
}

export type PredictionSetFields = Omit<PredictionSetRecord, 'id' | 'created_at' | 'reference'>;

/** The references every prediction set needs. */
export interface PredictionSetRefs {
  configId: string;
  annotationSetId: string;
  snapshotId: string;
}

/** A prediction set's fields over these references (numpy, 5 per entry, no job); `extra` overrides. */
export function predictionSetFields(
  refs: PredictionSetRefs,
  extra: Partial<PredictionSetFields> = {},
): PredictionSetFields {
  return {
    job_id: null,
    embedding_config_id: refs.configId,
    annotation_set_id: refs.annotationSetId,
    ontology_snapshot_id: refs.snapshotId,
    query_set_id: null,
    limit_per_entry: 5,
    distance_threshold: null,
    search_backend: 'numpy',
    aspect_separated_knn: false,
    options: {},
    feature_schema_sha: 'f'.repeat(64),
    reranker_model_id: null,
    query_count: 0,
    owner_user_id: null,
    visibility: 'owner',
    expires_at: null,
    ...extra,
  };
}

/** Creates `predictionSetFields(refs, extra)` and gives its id. */
export function insertPredictionSet(
  db: DataSource,
  refs: PredictionSetRefs,
  extra: Partial<PredictionSetFields> = {},
): Promise<string> {
  return new PredictionSetRepository(db).create(predictionSetFields(refs, extra));
}

/**
 * A prediction row of `protein` for `goId`, transferred from R1 by one EXP vote at rank 1; `extra`
 * overrides. A term `terms` does not hold gets go_term_id -1 and aspect C (a row with no name).
 */
export function predictionRow(
  terms: ReadonlyMap<string, TermRef>,
  protein: string,
  goId: string,
  distance: number,
  extra: PredictionRow = {},
): PredictionRow {
  const term = terms.get(goId);
  return {
    protein_accession: protein,
    go_term_id: term?.id ?? -1,
    go_id: goId,
    aspect: term?.aspect ?? 'C',
    distance,
    ref_protein_accession: 'R1',
    evidence_code: 'EXP',
    vote_count: 1,
    k_position: 1,
    ...extra,
  };
}

/** A job to queue on `svc.test` with a unique payload and no dedup key; `extra` overrides. */
export function jobFields(extra: Partial<NewJob> = {}): NewJob {
  return {
    operation: 'test_job',
    queueName: 'svc.test',
    payload: { run: randomUUID() },
    meta: {},
    description: null,
    tags: [],
    dedupKey: null,
    dispatchDeadlineSeconds: 30,
    ...extra,
  };
}

/** Queues `jobFields(extra)` and gives the job's id. */
export async function insertJob(db: DataSource, extra: Partial<NewJob> = {}): Promise<string> {
  return (await new JobRepository(db).createQueued(jobFields(extra))).id;
}

/** An active researcher with a unique `<label>-…` name and email; `extra` overrides. */
export function insertUser(db: DataSource, label: string, extra: Partial<NewUser> = {}): Promise<UserView> {
  const tag = randomUUID();
  return new UserRepository(db).create({
    email: `${label}-${tag}@example.org`,
    username: `${label}-${tag}`,
    displayName: '',
    passwordHash: null,
    role: 'researcher',
    status: 'active',
    intendedUse: null,
    ...extra,
  });
}

/** A canonical protein with no sequence and no UniProt fields; `extra` overrides. */
export function proteinFields(accession: string, extra: Partial<ProteinInput> = {}): ProteinInput {
  return {
    accession,
    canonicalAccession: accession,
    isCanonical: true,
    isoformIndex: null,
    sequenceId: null,
    entryName: null,
    proteinName: null,
    geneName: null,
    organism: null,
    taxonomyId: null,
    length: null,
    reviewed: null,
    ...extra,
  };
}

/** `proteinFields` as `storeWithSequences` takes them, with this sequence (or none). */
export function proteinEntry(
  accession: string,
  sequence: string | null,
  extra: Partial<Omit<ProteinInput, 'sequenceId'>> = {},
): Omit<ProteinInput, 'sequenceId'> & { sequence: { sequence: string; hash: string } | null } {
  const { sequenceId: _unused, ...fields } = proteinFields(accession, extra);
  return { ...fields, sequence: sequence === null ? null : { sequence, hash: md5Hex(sequence) } };
}

/**
 * Creates an owner-only query set of these (accession, sequence, taxon if any, gene name if any)
 * entries; gives its id.
 */
export async function insertQuerySet(
  db: DataSource,
  name: string,
  entries: ReadonlyArray<
    readonly [accession: string, sequence: string, taxonomyId?: number, geneName?: string]
  >,
): Promise<string> {
  const created = await new QuerySetRepository(db).create({
    name,
    description: null,
    entries: entries.map(([accession, sequence, taxonomyId, geneName]) => ({
      accession,
      sequence,
      hash: md5Hex(sequence),
      species: null,
      taxonomyId: taxonomyId ?? null,
      geneName: geneName ?? null,
    })),
    ownership: { owner_user_id: null, visibility: 'owner', expiresInDays: null },
  });
  return created['id'];
}

/** Deletes a test's embedding configs (their sets and vectors go with them), then its annotation sets; unset ids are skipped. */
export async function deleteFixtures(
  db: DataSource,
  ids: { configIds?: (string | undefined)[]; annotationSetIds?: (string | undefined)[] },
): Promise<void> {
  for (const id of ids.configIds ?? [])
    if (id !== undefined) await new EmbeddingRepository(db).deleteConfig(id);
  for (const id of ids.annotationSetIds ?? [])
    if (id !== undefined) await new AnnotationRepository(db).delete(id);
}
