import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateEmbeddings1764100000000 implements MigrationInterface {
  name = 'CreateEmbeddings1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE embedding_config (
        id uuid PRIMARY KEY,
        model_name text NOT NULL,
        model_backend text NOT NULL CHECK (model_backend IN ('kmer','esm','t5','ankh')),
        layer_indices integer[] NOT NULL,
        layer_agg text NOT NULL,
        pooling text NOT NULL,
        normalize_residues boolean NOT NULL,
        normalize boolean NOT NULL,
        max_length integer NOT NULL,
        use_chunking boolean NOT NULL,
        chunk_size integer NOT NULL,
        chunk_overlap integer NOT NULL,
        embedding_scale double precision NOT NULL,
        description text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    // Vectors as little-endian float32 (or float16) bytes; search runs in the workers, not in SQL.
    await q.query(`
      CREATE TABLE embedding (
        id bigserial PRIMARY KEY,
        embedding_config_id uuid NOT NULL REFERENCES embedding_config(id) ON DELETE CASCADE,
        sequence_id integer NOT NULL REFERENCES sequence(id) ON DELETE CASCADE,
        chunk_index integer NOT NULL DEFAULT 0 CHECK (chunk_index >= 0),
        dimension integer NOT NULL CHECK (dimension > 0),
        dtype text NOT NULL DEFAULT 'float32' CHECK (dtype IN ('float32','float16')),
        vector bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (embedding_config_id, sequence_id, chunk_index)
      )`);
    await q.query(`CREATE INDEX embedding_sequence_idx ON embedding (sequence_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE embedding`);
    await q.query(`DROP TABLE embedding_config`);
  }
}
