import { Client, ClientConfig } from 'pg';
import { DataSource } from 'typeorm';
import { CreateJobs1763800000000 } from './migrations/1763800000000-create-jobs';
import { CreateIdentity1763900000000 } from './migrations/1763900000000-create-identity';
import { CreateReferenceData1764000000000 } from './migrations/1764000000000-create-reference-data';
import { CreateEmbeddings1764100000000 } from './migrations/1764100000000-create-embeddings';
import { CreatePredictions1764200000000 } from './migrations/1764200000000-create-predictions';
import { CreateEvaluations1764300000000 } from './migrations/1764300000000-create-evaluations';
import { CreateRerankers1764400000000 } from './migrations/1764400000000-create-rerankers';
import { CreateExperimentRuns1764500000000 } from './migrations/1764500000000-create-experiment-runs';
import { CreateSupport1764600000000 } from './migrations/1764600000000-create-support';
import { CreateDatasets1764700000000 } from './migrations/1764700000000-create-datasets';
import { CreateJobRecovery1764800000000 } from './migrations/1764800000000-create-job-recovery';
import { AddOwnership1764900000000 } from './migrations/1764900000000-add-ownership';
import { AddPredictionScore1765000000000 } from './migrations/1765000000000-add-prediction-score';
import { CreateDatasetNameClaim1765100000000 } from './migrations/1765100000000-create-dataset-name-claim';
import { ExperimentRunNamePerOwner1765200000000 } from './migrations/1765200000000-experiment-run-name-per-owner';
import { ScoreInDistance1765300000000 } from './migrations/1765300000000-score-in-distance';
import { QuerySetEntryGeneName1765400000000 } from './migrations/1765400000000-query-set-entry-gene-name';
import { OntologyContentHash1765500000000 } from './migrations/1765500000000-ontology-content-hash';
import { PredictionProvenance1765600000000 } from './migrations/1765600000000-prediction-provenance';
import { ReferenceBundle1765700000000 } from './migrations/1765700000000-reference-bundle';
import { ProteinName1765800000000 } from './migrations/1765800000000-protein-name';
import { ComposedPrior1765900000000 } from './migrations/1765900000000-composed-prior';
import { QuerySetEntryKnownGoIds1766000000000 } from './migrations/1766000000000-query-set-entry-known-go-ids';

export const MIGRATIONS = [
  CreateJobs1763800000000,
  CreateIdentity1763900000000,
  CreateReferenceData1764000000000,
  CreateEmbeddings1764100000000,
  CreatePredictions1764200000000,
  CreateEvaluations1764300000000,
  CreateRerankers1764400000000,
  CreateExperimentRuns1764500000000,
  CreateSupport1764600000000,
  CreateDatasets1764700000000,
  CreateJobRecovery1764800000000,
  AddOwnership1764900000000,
  AddPredictionScore1765000000000,
  CreateDatasetNameClaim1765100000000,
  ExperimentRunNamePerOwner1765200000000,
  ScoreInDistance1765300000000,
  QuerySetEntryGeneName1765400000000,
  OntologyContentHash1765500000000,
  PredictionProvenance1765600000000,
  ReferenceBundle1765700000000,
  ProteinName1765800000000,
  ComposedPrior1765900000000,
  QuerySetEntryKnownGoIds1766000000000,
];

export interface DataSourceOptions {
  url: string;
  poolSize?: number;
  applicationName?: string;
}

/**
 * The pool's client class. A server that shuts down (restart, failover) sends its connections an
 * error and then drops them, and a connection can report more than one error; with no listener left
 * for the second one (TypeORM listens while a connection is checked out, the pool while it is idle),
 * Node ends the process. This listener keeps the process alive; the pool and the failed query still
 * see every error, and the pool replaces the connection.
 */
class ResilientClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}

/** The one DataSource factory: the schema only ever changes through migrations. */
export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    entities: [],
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: {
      max: options.poolSize ?? 10,
      application_name: options.applicationName ?? 'svc',
      connectionTimeoutMillis: 10_000,
      Client: ResilientClient,
    },
  });
}

/** Connections checked out of the pool right now (for the db_pool_in_use gauge). */
export function poolInUse(dataSource: DataSource): number {
  const driver = dataSource.driver as unknown as { master?: { totalCount: number; idleCount: number } };
  const pool = driver.master;
  return pool ? pool.totalCount - pool.idleCount : 0;
}

export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const applied = await dataSource.runMigrations({ transaction: 'each' });
  return applied.map((m) => m.name);
}
