import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Prior-only rows composed at read (docs/scaling.md, "Storage"). A homology prediction stores its
 * set's prior once (`prediction_set_prior`: every term that can make a prior-only row, with its band's
 * calibration map) and, per (protein, aspect) whose prior-only rows it leaves out, the homology weight
 * and the terms it stored as rows (`prediction_prior_weight`). `prediction_row` is what every reader
 * reads: the stored rows, and beside them the composed ones,
 * `score = svc_calibrate((1 - weight) * prior)` for every prior term not stored, kept when it
 * reaches the model's `min_score`; a composed row's id is 0. A query the reference knows has its
 * prior informed by association (`informedPrior`): its prior of a term is then
 * `(1 - association_weight) * frequency + association_weight * association`, with the term's
 * association kept beside the weights (`prediction_prior_association`, numeric as written) and 0 for
 * a term without one, looked up by its key for the (protein, aspect) being composed (a query without
 * association looks up nothing), so a batch of proteins reads only its own associations. The raw
 * blend is computed once per row (the OFFSET 0 keeps it apart), so the inlined `svc_calibrate`
 * repeats a column, not the expression.
 *
 * `svc_calibrate` is `calibrate` of the domain (the piecewise-linear map between knots, the end
 * knots' values outside them) in the same float8 operations, so a composed row's distance is the one
 * the prediction would have stored. `prior_value` keeps the frequency as the text the prediction
 * wrote, and `features` a prior-only row's features built from it once, so the `prior` of a composed
 * row's features prints as a stored row's did.
 *
 * Down drops the view, the function and the three tables; sets predicted since lose their composed rows.
 */
export class ComposedPrior1765900000000 implements MigrationInterface {
  name = 'ComposedPrior1765900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE prediction_set_prior (
        prediction_set_id uuid NOT NULL REFERENCES prediction_set(id) ON DELETE CASCADE,
        digest text NOT NULL,
        aspect text NOT NULL CHECK (aspect IN ('F','P','C')),
        go_term_id integer NOT NULL,
        go_id text NOT NULL,
        frequency double precision NOT NULL,
        prior_value numeric NOT NULL,
        features jsonb NOT NULL,
        term_frequency integer NOT NULL,
        min_score double precision NOT NULL,
        calibration_raw double precision[],
        calibration_value double precision[],
        PRIMARY KEY (prediction_set_id, digest, aspect, go_term_id)
      )`);
    await q.query(`
      CREATE TABLE prediction_prior_weight (
        prediction_set_id uuid NOT NULL REFERENCES prediction_set(id) ON DELETE CASCADE,
        protein_accession text NOT NULL,
        aspect text NOT NULL CHECK (aspect IN ('F','P','C')),
        digest text NOT NULL,
        weight double precision NOT NULL,
        association_weight double precision NOT NULL,
        query_taxonomy_id text,
        neighbourhood boolean NOT NULL,
        composed_rows integer NOT NULL,
        stored_terms integer[] NOT NULL,
        PRIMARY KEY (prediction_set_id, protein_accession, aspect)
      )`);
    await q.query(`
      CREATE TABLE prediction_prior_association (
        prediction_set_id uuid NOT NULL REFERENCES prediction_set(id) ON DELETE CASCADE,
        protein_accession text NOT NULL,
        go_term_id integer NOT NULL,
        value numeric NOT NULL,
        PRIMARY KEY (prediction_set_id, protein_accession, go_term_id)
      )`);
    await q.query(`
      CREATE FUNCTION svc_calibrate(raw double precision, xs double precision[], ys double precision[])
        RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE
          WHEN xs IS NULL OR cardinality(xs) = 0 THEN raw
          WHEN raw <= xs[1] THEN ys[1]
          WHEN raw >= xs[cardinality(xs)] THEN ys[cardinality(xs)]
          ELSE LEAST(1::float8, GREATEST(0::float8,
            ys[width_bucket(raw, xs)]
              + ((raw - xs[width_bucket(raw, xs)]) / (xs[width_bucket(raw, xs) + 1] - xs[width_bucket(raw, xs)]))
              * (ys[width_bucket(raw, xs) + 1] - ys[width_bucket(raw, xs)])))
        END
      $$`);
    await q.query(`
      CREATE VIEW prediction_row AS
        SELECT p.id, p.prediction_set_id, p.protein_accession, p.go_term_id, p.go_id, p.aspect, p.distance,
               p.ref_protein_accession, p.qualifier, p.evidence_code,
               p.identity_nw, p.similarity_nw, p.alignment_score_nw, p.gaps_pct_nw, p.alignment_length_nw,
               p.identity_sw, p.similarity_sw, p.alignment_score_sw, p.gaps_pct_sw, p.alignment_length_sw,
               p.length_query, p.length_ref, p.query_taxonomy_id, p.ref_taxonomy_id, p.taxonomic_lca,
               p.taxonomic_distance, p.taxonomic_common_ancestors, p.taxonomic_relation,
               p.vote_count, p.k_position, p.go_term_frequency, p.ref_annotation_density,
               p.neighbor_distance_std, p.neighbor_vote_fraction, p.features
          FROM prediction p
        UNION ALL
        SELECT 0::bigint, w.prediction_set_id, w.protein_accession, sp.go_term_id, sp.go_id, sp.aspect,
               (1 - LEAST(1::float8, GREATEST(0::float8, c.score)))::real,
               NULL::text, NULL::text, NULL::text,
               NULL::real, NULL::real, NULL::real, NULL::real, NULL::integer,
               NULL::real, NULL::real, NULL::real, NULL::real, NULL::integer,
               NULL::integer, NULL::integer, w.query_taxonomy_id, NULL::text, NULL::text,
               NULL::integer, NULL::integer, NULL::text,
               0, NULL::integer, CASE WHEN w.neighbourhood THEN sp.term_frequency END, NULL::integer,
               NULL::real, CASE WHEN w.neighbourhood THEN 0::real END,
               CASE WHEN pa.value IS NULL THEN sp.features
                    ELSE sp.features || jsonb_build_object('association', pa.value) END
          FROM prediction_prior_weight w
          JOIN prediction_set_prior sp
            ON sp.prediction_set_id = w.prediction_set_id AND sp.digest = w.digest AND sp.aspect = w.aspect
           AND sp.go_term_id <> ALL (w.stored_terms)
          LEFT JOIN LATERAL (
            SELECT a.value FROM prediction_prior_association a
             WHERE w.association_weight <> 0 AND a.prediction_set_id = w.prediction_set_id
               AND a.protein_accession = w.protein_accession AND a.go_term_id = sp.go_term_id
             LIMIT 1) pa ON true
          CROSS JOIN LATERAL (
            SELECT svc_calibrate(r.raw, sp.calibration_raw, sp.calibration_value) AS score
              FROM (SELECT (1 - w.weight) * CASE WHEN w.association_weight = 0 THEN sp.frequency
                      ELSE (1 - w.association_weight) * sp.frequency
                           + w.association_weight * COALESCE(pa.value::float8, 0) END AS raw
                    OFFSET 0) r) c
         WHERE c.score >= sp.min_score`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP VIEW prediction_row`);
    await q.query(`DROP FUNCTION svc_calibrate(double precision, double precision[], double precision[])`);
    await q.query(`DROP TABLE prediction_prior_association`);
    await q.query(`DROP TABLE prediction_prior_weight`);
    await q.query(`DROP TABLE prediction_set_prior`);
  }
}
