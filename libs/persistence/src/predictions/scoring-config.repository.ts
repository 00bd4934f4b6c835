import { DataSource } from 'typeorm';
import { DomainError, notFound } from '@svc/contracts';
import type { ScoringWeights } from '@svc/domain';
import { isoColumn, isUniqueViolation, queryOne, queryRows } from '../sql';

export interface ScoringConfigRecord {
  id: string;
  name: string;
  weights: ScoringWeights;
  description: string | null;
  is_preset: boolean;
  created_at: string;
}

const COLUMNS = `id, name, weights, description, is_preset, ${isoColumn('created_at')}`;

export class ScoringConfigRepository {
  constructor(private readonly db: DataSource) {}

  list(): Promise<ScoringConfigRecord[]> {
    return queryRows(this.db, `SELECT ${COLUMNS} FROM scoring_config ORDER BY created_at DESC, name`);
  }

  find(id: string): Promise<ScoringConfigRecord | null> {
    return queryOne(this.db, `SELECT ${COLUMNS} FROM scoring_config WHERE id = $1`, [id]);
  }

  findByName(name: string): Promise<ScoringConfigRecord | null> {
    return queryOne(this.db, `SELECT ${COLUMNS} FROM scoring_config WHERE name = $1`, [name]);
  }

  async get(id: string): Promise<ScoringConfigRecord> {
    const config = await this.find(id);
    if (config === null) throw notFound('Scoring config');
    return config;
  }

  async create(input: {
    name: string;
    weights: ScoringWeights;
    description: string | null;
    isPreset?: boolean;
  }): Promise<ScoringConfigRecord> {
    try {
      const row = await queryOne<ScoringConfigRecord>(
        this.db,
        `INSERT INTO scoring_config (name, weights, description, is_preset) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
        [input.name, JSON.stringify(input.weights), input.description, input.isPreset ?? false],
      );
      return row!;
    } catch (error) {
      if (isUniqueViolation(error, 'scoring_config_name_key'))
        throw new DomainError('conflict', `a scoring config named '${input.name}' already exists`);
      throw error;
    }
  }

  async delete(id: string): Promise<{ id: string; deleted: boolean }> {
    const rows = await queryRows(this.db, `DELETE FROM scoring_config WHERE id = $1 RETURNING id`, [id]);
    if (rows.length === 0) throw notFound('Scoring config');
    return { id, deleted: true };
  }
}
