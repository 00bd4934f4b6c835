import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { COMPUTE_EMBEDDINGS, ComputeEmbeddingsPayload, DomainError, isUuid, notFound } from '@svc/contracts';
import { canonicalizeEmbeddingConfig, isStaff, Viewer } from '@svc/domain';
import { availableEmbeddingModels } from '@svc/inference';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { EmbeddingConfigDeletion, EmbeddingConfigView, EmbeddingRepository } from '@svc/persistence';
import { Principal } from '@svc/platform';
import { CachedValue } from '../common/cached-value';
import { JobsService } from '../jobs/jobs.service';
import { PredictionsService } from '../predictions/predictions.service';

/** A config's embedding count as a viewer may see it: every sequence for staff, public ones for others. */
function countedFor(config: EmbeddingConfigView, publicCounts: Map<string, number>, viewer: Viewer) {
  return isStaff(viewer) ? config : { ...config, embedding_count: publicCounts.get(config.id) ?? 0 };
}

/** Embedding configs (immutable recipes), their cached list with counts, and compute requests. */
@Injectable()
export class EmbeddingsService implements OnModuleInit, OnModuleDestroy {
  private readonly configs: CachedValue<{ items: EmbeddingConfigView[]; publicCounts: Map<string, number> }>;

  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    private readonly jobs: JobsService,
    private readonly predictions: PredictionsService,
    private readonly embeddings: EmbeddingRepository,
  ) {
    this.configs = new CachedValue(
      'embedding_configs',
      async () => ({
        items: await this.embeddings.listConfigs(),
        publicCounts: await this.embeddings.publicEmbeddingCounts(),
      }),
      5 * 60 * 1000,
      infra.logger.child('gateway.cache'),
    );
  }

  onModuleInit(): void {
    this.configs.start();
  }

  onModuleDestroy(): void {
    this.configs.stop();
  }

  /** Staff see how many sequences each config embedded; others how many public ones (docs/security.md). */
  async listConfigs(viewer: Viewer): Promise<EmbeddingConfigView[]> {
    const { items, publicCounts } = await this.configs.get();
    return items.map((config) => countedFor(config, publicCounts, viewer));
  }

  /**
   * Validates every rule at once (422 lists them), including that the backend can run the model
   * (a k-mer recipe, or an ONNX model folder under the models directory, which the gateway shares
   * with the embedding workers), and returns the canonical config with defaults.
   */
  async createConfig(
    body: unknown,
    viewer: Viewer,
  ): Promise<{ config: EmbeddingConfigView; created: boolean }> {
    const result = canonicalizeEmbeddingConfig(
      body,
      await availableEmbeddingModels(this.infra.config.modelsDir),
    );
    if ('errors' in result) {
      throw new DomainError(
        'validation_error',
        `invalid embedding config: ${result.errors.join('; ')}`,
        { messages: result.errors },
        result.errors.map((message) => ({ path: /^(\w+)/.exec(message)?.[1] ?? '', message })),
      );
    }
    const saved = await this.embeddings.saveConfig(result.config);
    this.configs.invalidate();
    return { ...saved, config: await this.counted(saved.config, viewer) };
  }

  async getConfig(id: string, viewer: Viewer): Promise<EmbeddingConfigView> {
    if (!isUuid(id)) throw notFound('Embedding config');
    return this.counted(await this.embeddings.getConfig(id), viewer);
  }

  private async counted(config: EmbeddingConfigView, viewer: Viewer): Promise<EmbeddingConfigView> {
    if (isStaff(viewer)) return config;
    return countedFor(config, await this.embeddings.publicEmbeddingCounts(config.id), viewer);
  }

  async deleteConfig(id: string): Promise<EmbeddingConfigDeletion> {
    if (!isUuid(id)) throw notFound('Embedding config');
    const result = await this.embeddings.deleteConfig(id);
    this.configs.invalidate();
    // The config's prediction sets went with it.
    this.predictions.setsChanged();
    return result;
  }

  /** The dispatch checks the config and the query set (404), so a typo fails now rather than as a job later. */
  compute(payload: ComputeEmbeddingsPayload, principal: Principal | undefined) {
    return this.jobs.dispatch(COMPUTE_EMBEDDINGS, payload, principal);
  }

  countUnindexed(): Promise<number> {
    return this.embeddings.countUnindexed();
  }

  deleteUnindexed(): Promise<number> {
    return this.embeddings.deleteUnindexed();
  }
}
