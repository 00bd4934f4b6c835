import { Inject, Injectable, OnApplicationBootstrap, StreamableFile } from '@nestjs/common';
import { isUuid, notFound, ScoringConfigCreate } from '@svc/contracts';
import { normalizeWeights, SCORING_PRESETS, SCORING_SIGNALS, scorePrediction, Viewer } from '@svc/domain';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import {
  PredictionSetRepository,
  ScoringConfigRecord,
  ScoringConfigRepository,
  ReferenceCheckRepository,
} from '@svc/persistence';
import { rowSignals } from '@svc/use-cases';
import { requirePredictionSet } from '../common/ownership';
import { invalidBody } from './predictions.service';
import { streamTsv } from './tsv';

/** Scoring configs (named weights over the scoring signals) and scored exports of prediction sets. */
@Injectable()
export class ScoringService implements OnApplicationBootstrap {
  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    private readonly configs: ScoringConfigRepository,
    private readonly sets: PredictionSetRepository,
    private readonly references: ReferenceCheckRepository,
  ) {}

  /** The presets (`default` first) exist from the first start on; a failure here must not stop the gateway. */
  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.createPresets();
    } catch (error) {
      this.infra.logger.warn('scoring presets not registered', { error: (error as Error).message });
    }
  }

  list() {
    return this.configs.list();
  }

  async create(body: ScoringConfigCreate): Promise<ScoringConfigRecord> {
    const weights = normalizeWeights(body.weights);
    if ('errors' in weights) throw invalidBody(weights.errors);
    return this.configs.create({
      name: body.name,
      weights: weights.weights,
      description: body.description ?? null,
    });
  }

  get(id: string) {
    if (!isUuid(id)) throw notFound('Scoring config');
    return this.configs.get(id);
  }

  delete(id: string) {
    if (!isUuid(id)) throw notFound('Scoring config');
    return this.configs.delete(id);
  }

  /** Creates the presets that do not exist yet; returns all of them. */
  async createPresets(): Promise<{ created: string[]; presets: ScoringConfigRecord[] }> {
    const created: string[] = [];
    const presets: ScoringConfigRecord[] = [];
    for (const preset of SCORING_PRESETS) {
      let row = await this.configs.findByName(preset.name);
      if (row === null) {
        const weights = normalizeWeights(preset.weights);
        if ('errors' in weights) throw new Error(`preset ${preset.name}: ${weights.errors.join('; ')}`);
        try {
          row = await this.configs.create({
            name: preset.name,
            weights: weights.weights,
            description: preset.description,
            isPreset: true,
          });
          created.push(preset.name);
        } catch (error) {
          // Another gateway registered it meanwhile.
          row = await this.configs.findByName(preset.name);
          if (row === null) throw error;
        }
      }
      presets.push(row);
    }
    return { created, presets };
  }

  /** score.tsv: every prediction row with its signals and the config's score. */
  async scoreTsv(predictionSetId: string, scoringConfigId: string, viewer: Viewer): Promise<StreamableFile> {
    await requirePredictionSet(this.references, predictionSetId, viewer);
    const config = await this.configs.get(scoringConfigId);
    const rows = this.sets.streamRows(predictionSetId, {});
    const columns = [
      'protein_accession',
      'go_id',
      'go_aspect',
      'score',
      ...SCORING_SIGNALS,
      'distance',
      'ref_protein_accession',
    ];
    async function* chunks() {
      for await (const chunk of rows) {
        yield chunk.map((r) => {
          const signals = rowSignals(r);
          const score = scorePrediction(config.weights, signals);
          return [
            r['protein_accession'],
            r['go_id'],
            r['go_aspect'],
            score.toFixed(6),
            ...SCORING_SIGNALS.map((s) => signals[s]),
            r['distance'],
            r['ref_protein_accession'],
          ];
        });
      }
    }
    return streamTsv(columns, chunks(), `score-${predictionSetId}.tsv`);
  }
}
