import { DataSource } from 'typeorm';
import { CommunityRepository } from './community/community.repository';
import { DatasetRepository } from './datasets/dataset.repository';
import { EmbeddingRepository } from './embeddings/embedding.repository';
import { EvaluationRepository } from './evaluations/evaluation.repository';
import { ExperimentRunRepository } from './experiments/experiment-run.repository';
import { ApiKeyRepository } from './identity/api-key.repository';
import { AuditRepository } from './identity/audit.repository';
import { AuthTokenRepository } from './identity/auth-token.repository';
import { QuotaRepository } from './identity/quota.repository';
import { SecretRepository } from './identity/secret.repository';
import { SessionRepository } from './identity/session.repository';
import { UserRepository } from './identity/user.repository';
import { VisitorRepository } from './identity/visitor.repository';
import { JobCommentRepository } from './jobs/job-comment.repository';
import { JobEventRepository } from './jobs/job-event.repository';
import { JobRepository } from './jobs/job.repository';
import { PredictionExportReader } from './predictions/prediction-export.reader';
import { PredictionProvenanceRepository } from './predictions/prediction-provenance.repository';
import { PredictionSetRepository } from './predictions/prediction-set.repository';
import { ReferencePoolRepository } from './predictions/reference-pool.repository';
import { RerankerRepository } from './predictions/reranker.repository';
import { ScoringConfigRepository } from './predictions/scoring-config.repository';
import { AnnotationRepository } from './reference/annotation.repository';
import { InterProRepository } from './reference/interpro.repository';
import { OntologyRepository } from './reference/ontology.repository';
import { ProteinRepository } from './reference/protein.repository';
import { QuerySetRepository } from './reference/query-set.repository';
import { ReferenceBundleRepository } from './reference/reference-bundle.repository';
import { ReferenceCheckRepository } from './reference/reference-check.repository';
import { TaxonomyRepository } from './reference/taxonomy.repository';
import { RetentionRepository } from './retention/retention.repository';

/**
 * Every repository of one process, built once over its pool. Operations and services receive this
 * (or the repositories they need from it) instead of the pool, so all SQL stays behind the
 * repositories' intent-named methods. The repositories are stateless: one set serves every job.
 */
export function createRepositories(db: DataSource) {
  return Object.freeze({
    annotations: new AnnotationRepository(db),
    apiKeys: new ApiKeyRepository(db),
    audit: new AuditRepository(db),
    authTokens: new AuthTokenRepository(db),
    community: new CommunityRepository(db),
    datasets: new DatasetRepository(db),
    embeddings: new EmbeddingRepository(db),
    evaluations: new EvaluationRepository(db),
    experimentRuns: new ExperimentRunRepository(db),
    interpro: new InterProRepository(db),
    jobComments: new JobCommentRepository(db),
    jobEvents: new JobEventRepository(db),
    jobs: new JobRepository(db),
    ontologies: new OntologyRepository(db),
    predictionExports: new PredictionExportReader(db),
    predictionProvenance: new PredictionProvenanceRepository(db),
    predictionSets: new PredictionSetRepository(db),
    proteins: new ProteinRepository(db),
    querySets: new QuerySetRepository(db),
    quotas: new QuotaRepository(db),
    referenceBundles: new ReferenceBundleRepository(db),
    references: new ReferenceCheckRepository(db),
    referencePools: new ReferencePoolRepository(db),
    rerankers: new RerankerRepository(db),
    retention: new RetentionRepository(db),
    scoringConfigs: new ScoringConfigRepository(db),
    secrets: new SecretRepository(db),
    sessions: new SessionRepository(db),
    taxonomy: new TaxonomyRepository(db),
    users: new UserRepository(db),
    visitors: new VisitorRepository(db),
  });
}

export type Repositories = ReturnType<typeof createRepositories>;
