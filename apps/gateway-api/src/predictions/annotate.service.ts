import { Inject, Injectable } from '@nestjs/common';
import { COMPUTE_EMBEDDINGS, DomainError, hasRoleAtLeast, PREDICT_GO_TERMS } from '@svc/contracts';
import { canonicalizeEmbeddingConfig, parseFasta } from '@svc/domain';
import { INFRASTRUCTURE, Infrastructure } from '@svc/jobs';
import { EmbeddingRepository, queryOne } from '@svc/persistence';
import { Principal } from '@svc/platform';
import { GATEWAY_AUTH, GatewayAuth } from '../auth/guards';
import { JobsService } from '../jobs/jobs.service';
import { ReferenceService } from '../reference/reference.service';

/** The embedding recipe one-click annotation uses when no config has embeddings yet. */
const DEFAULT_CONFIG = { model_name: 'kmer-v1', model_backend: 'kmer', description: 'default k-mer recipe' };

export interface AnnotateResponse {
  query_set_id: string;
  embedding_job_id: string;
  embedding_config_id: string;
  annotation_set_id: string;
  ontology_snapshot_id: string;
}

/**
 * One-click annotation: FASTA in, a query set, its embeddings with the best available config, and
 * the prediction queued automatically when the embeddings are done (the embedding job's
 * `meta.then`; its result then carries `prediction_job_id`).
 */
@Injectable()
export class AnnotateService {
  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    @Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth,
    private readonly jobs: JobsService,
    private readonly reference: ReferenceService,
  ) {}

  async annotate(input: {
    name: string;
    fasta: string;
    saveHistory: boolean;
    principal: Principal | undefined;
  }): Promise<AnnotateResponse> {
    const role = input.principal?.role ?? 'guest';
    if (input.saveHistory && !hasRoleAtLeast(role, 'researcher')) {
      throw role === 'guest' && input.principal?.kind !== 'gate_disabled'
        ? new DomainError('unauthorized', 'save_history=true needs a signed-in researcher account')
        : new DomainError('forbidden', 'save_history=true needs role researcher');
    }
    const target = await this.pickAnnotationSet();
    const config = await this.pickEmbeddingConfig();
    const parsed = parseFasta(input.fasta);
    // A bad file is refused (422, nothing stored) before any quota is charged.
    if (input.principal !== undefined && parsed.problems.length === 0 && parsed.records.length > 0)
      await this.auth.limits.consumeDaily(input.principal, 'annotate_sequences', parsed.records.length);
    const querySet = (await this.reference.uploadQuerySet({
      name: input.name,
      description: input.saveHistory ? 'one-click annotation' : 'one-click annotation (not saved to history)',
      fasta: input.fasta,
    })) as { id: string };
    const predict = {
      embedding_config_id: config,
      annotation_set_id: target.annotation_set_id,
      ontology_snapshot_id: target.ontology_snapshot_id,
      query_set_id: querySet.id,
    };
    const job = await this.jobs.dispatch(
      { ...COMPUTE_EMBEDDINGS, roleFloor: 'guest' },
      { embedding_config_id: config, query_set_id: querySet.id },
      input.principal,
      {
        meta: {
          annotate: { save_history: input.saveHistory },
          then: {
            operation: PREDICT_GO_TERMS.name,
            queue_name: PREDICT_GO_TERMS.queue,
            payload: predict,
            result_key: 'prediction_job_id',
          },
        },
      },
    );
    return {
      query_set_id: querySet.id,
      embedding_job_id: job.id,
      embedding_config_id: config,
      annotation_set_id: target.annotation_set_id,
      ontology_snapshot_id: target.ontology_snapshot_id,
    };
  }

  /** The newest annotation set that has annotations. */
  private async pickAnnotationSet(): Promise<{ annotation_set_id: string; ontology_snapshot_id: string }> {
    const row = await queryOne<{ annotation_set_id: string; ontology_snapshot_id: string }>(
      this.infra.db,
      `SELECT id AS annotation_set_id, ontology_snapshot_id FROM annotation_set WHERE annotation_count > 0
        ORDER BY created_at DESC LIMIT 1`,
    );
    if (row === null)
      throw new DomainError(
        'conflict',
        'no annotation set is loaded yet; an operator must load GO annotations first',
      );
    return row;
  }

  /** The config with the most stored embeddings (the reference pool lives there), else the default recipe. */
  private async pickEmbeddingConfig(): Promise<string> {
    const best = await queryOne<{ id: string }>(
      this.infra.db,
      `SELECT c.id FROM embedding_config c LEFT JOIN embedding e ON e.embedding_config_id = c.id
        GROUP BY c.id, c.created_at ORDER BY count(e.id) DESC, c.created_at LIMIT 1`,
    );
    if (best !== null) return best.id;
    const canonical = canonicalizeEmbeddingConfig(DEFAULT_CONFIG);
    if ('errors' in canonical)
      throw new Error(`default embedding config is invalid: ${canonical.errors.join('; ')}`);
    return (await new EmbeddingRepository(this.infra.db).saveConfig(canonical.config)).config.id;
  }
}
