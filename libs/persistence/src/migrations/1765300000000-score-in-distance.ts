import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One score everywhere, the specification's max(0, 1 - distance) (docs/prediction.md, "Score").
 * A homology-blend row (a set searched with DIAMOND) stored its calibrated score apart and
 * 1 - identity as its distance; it now stores 1 - score as its distance (the blend's distance), so
 * the formula gives back the score it was evaluated with. The identity stays in the row's features.
 * An embedding row keeps its cosine distance: its score is the formula's. The score column goes.
 *
 * Down brings the column back for homology rows (score = 1 - distance); their old distance
 * (1 - identity) is read back from `features.identity` where the row has a donor, else 1.
 */
export class ScoreInDistance1765300000000 implements MigrationInterface {
  name = 'ScoreInDistance1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE prediction p SET distance = 1 - p.score
        FROM prediction_set s
       WHERE s.id = p.prediction_set_id AND s.search_backend = 'diamond' AND p.score IS NOT NULL`);
    await q.query(`ALTER TABLE prediction DROP COLUMN score`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE prediction ADD COLUMN score real CHECK (score >= 0 AND score <= 1)`);
    await q.query(`
      UPDATE prediction p
         SET score = GREATEST(0, LEAST(1, 1 - p.distance)),
             distance = COALESCE(1 - (p.features ->> 'identity')::real, 1)
        FROM prediction_set s
       WHERE s.id = p.prediction_set_id AND s.search_backend = 'diamond'`);
  }
}
