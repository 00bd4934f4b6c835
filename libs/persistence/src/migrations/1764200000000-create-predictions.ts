import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePredictions1764200000000 implements MigrationInterface {
  name = 'CreatePredictions1764200000000';

  async up(q: QueryRunner): Promise<void> {
    // The annotation set is referenced without cascade: deleting a set still used by predictions is a 409.
    await q.query(`
      CREATE TABLE prediction_set (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        job_id uuid,
        embedding_config_id uuid NOT NULL REFERENCES embedding_config(id) ON DELETE CASCADE,
        annotation_set_id uuid NOT NULL REFERENCES annotation_set(id),
        ontology_snapshot_id uuid NOT NULL REFERENCES ontology_snapshot(id),
        query_set_id uuid REFERENCES query_set(id) ON DELETE SET NULL,
        limit_per_entry integer NOT NULL,
        distance_threshold double precision,
        search_backend text NOT NULL,
        aspect_separated_knn boolean NOT NULL,
        options jsonb NOT NULL DEFAULT '{}'::jsonb,
        feature_schema_sha text NOT NULL,
        reranker_model_id uuid,
        query_count integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX prediction_set_created_idx ON prediction_set (created_at DESC)`);
    await q.query(
      `CREATE INDEX prediction_set_query_set_idx ON prediction_set (query_set_id, embedding_config_id)`,
    );
    await q.query(`
      CREATE TABLE prediction (
        id bigserial PRIMARY KEY,
        prediction_set_id uuid NOT NULL REFERENCES prediction_set(id) ON DELETE CASCADE,
        protein_accession text NOT NULL,
        go_term_id integer NOT NULL,
        go_id text NOT NULL,
        aspect text NOT NULL CHECK (aspect IN ('F','P','C')),
        distance real NOT NULL,
        ref_protein_accession text NOT NULL,
        qualifier text,
        evidence_code text,
        identity_nw real, similarity_nw real, alignment_score_nw real, gaps_pct_nw real, alignment_length_nw integer,
        identity_sw real, similarity_sw real, alignment_score_sw real, gaps_pct_sw real, alignment_length_sw integer,
        length_query integer, length_ref integer,
        query_taxonomy_id text, ref_taxonomy_id text, taxonomic_lca text, taxonomic_distance integer,
        taxonomic_common_ancestors integer, taxonomic_relation text,
        vote_count integer NOT NULL,
        k_position integer NOT NULL,
        go_term_frequency integer,
        ref_annotation_density integer,
        neighbor_distance_std real,
        neighbor_vote_fraction real,
        features jsonb NOT NULL DEFAULT '{}'::jsonb
      )`);
    await q.query(
      `CREATE INDEX prediction_set_protein_idx ON prediction (prediction_set_id, protein_accession, distance)`,
    );
    await q.query(`
      CREATE TABLE scoring_config (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL UNIQUE,
        weights jsonb NOT NULL,
        description text,
        is_preset boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`
      CREATE TABLE taxonomy_node (
        tax_id integer PRIMARY KEY,
        parent_tax_id integer NOT NULL,
        rank text,
        source_version text
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['taxonomy_node', 'scoring_config', 'prediction', 'prediction_set']) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
