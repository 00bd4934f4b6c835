import { DataSource } from 'typeorm';
import { publicSequenceCondition } from '../ownership';
import { setRowCountSql } from '../predictions/prediction-columns';
import { isoColumn, queryOne, queryRows } from '../sql';

/** A thumbs-up, with its comment when it has one. */
export interface SupportEntryRow {
  id: string;
  comment: string | null;
  created_at: string;
}

/** The best published result of one (category, aspect): f_micro_w, or fmax without IA. */
export interface ShowcaseResultRow {
  category: string;
  aspect: string;
  result_id: string;
  evaluation_set_id: string;
  prediction_set_id: string | null;
  stage: string | null;
  metric: 'f_micro_w' | 'fmax';
  value: number;
  created_at: string;
}

/** Thumbs-up with optional comments, and the platform figures the showcase page shows. */
export class CommunityRepository {
  constructor(private readonly db: DataSource) {}

  async addSupport(comment: string | null): Promise<SupportEntryRow> {
    const row = await queryOne<SupportEntryRow>(
      this.db,
      `INSERT INTO support_entry (comment) VALUES ($1) RETURNING id, comment, ${isoColumn('created_at')}`,
      [comment],
    );
    return row!;
  }

  async support(recent = 20): Promise<{ total: number; recent_comments: SupportEntryRow[] }> {
    const total = await queryOne<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM support_entry`);
    const comments = await queryRows<SupportEntryRow>(
      this.db,
      `SELECT id, comment, ${isoColumn('created_at')} FROM support_entry WHERE comment IS NOT NULL
        ORDER BY created_at DESC LIMIT $1`,
      [recent],
    );
    return { total: total?.n ?? 0, recent_comments: comments };
  }

  /**
   * Counts of what the platform holds, and the best published result of each (category, aspect): the
   * showcase is open to guests, so private work (owner-only or unlisted) is neither ranked nor
   * counted: prediction sets and their predictions are public ones, embeddings those of public
   * sequences, results published ones.
   */
  async showcase(): Promise<{
    counts: Record<string, number> | undefined;
    best_results: ShowcaseResultRow[];
  }> {
    const [counts] = await queryRows<Record<string, number>>(
      this.db,
      `SELECT (SELECT count(*)::int FROM protein) AS proteins,
              (SELECT count(*)::int FROM ontology_snapshot) AS ontology_snapshots,
              (SELECT count(*)::int FROM annotation_set) AS annotation_sets,
              (SELECT coalesce(sum(annotation_count), 0)::int FROM annotation_set) AS annotations,
              (SELECT count(*)::int FROM embedding_config) AS embedding_configs,
              (SELECT count(*)::int FROM embedding e WHERE ${publicSequenceCondition('e.sequence_id')}) AS embeddings,
              (SELECT count(*)::int FROM prediction_set WHERE visibility = 'public') AS prediction_sets,
              (SELECT COALESCE(sum(${setRowCountSql('s.id')}), 0)::int FROM prediction_set s
                WHERE s.visibility = 'public') AS predictions,
              (SELECT count(*)::int FROM evaluation_set) AS evaluation_sets,
              (SELECT count(*)::int FROM evaluation_result WHERE visibility = 'public') AS evaluation_results,
              (SELECT count(*)::int FROM reranker_model) AS rerankers`,
    );
    // The headline is f_micro_w; results evaluated without IA rank by fmax.
    const best = await queryRows<ShowcaseResultRow>(
      this.db,
      `SELECT DISTINCT ON (category, aspect) category, aspect, result_id, evaluation_set_id, prediction_set_id, stage,
              metric, value, ${isoColumn('created_at')}
         FROM (SELECT c.key AS category, a.key AS aspect, r.id AS result_id, r.evaluation_set_id, r.prediction_set_id,
                      r.stage, r.created_at,
                      CASE WHEN a.value ? 'f_micro_w' THEN 'f_micro_w' ELSE 'fmax' END AS metric,
                      coalesce((a.value ->> 'f_micro_w')::float8, (a.value ->> 'fmax')::float8) AS value
                 FROM evaluation_result r, jsonb_each(r.metrics) c, jsonb_each(c.value) a
                WHERE r.visibility = 'public') m
        WHERE value IS NOT NULL
        ORDER BY category, aspect, value DESC`,
    );
    return { counts, best_results: best };
  }
}
