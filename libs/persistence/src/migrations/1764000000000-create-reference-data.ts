import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateReferenceData1764000000000 implements MigrationInterface {
  name = 'CreateReferenceData1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ontology_snapshot (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        obo_version text NOT NULL UNIQUE,
        obo_url text NOT NULL,
        loaded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        ia_url text,
        format_version text,
        term_count integer NOT NULL DEFAULT 0,
        relationship_count integer NOT NULL DEFAULT 0
      )`);
    await q.query(`
      CREATE TABLE go_term (
        id serial PRIMARY KEY,
        ontology_snapshot_id uuid NOT NULL REFERENCES ontology_snapshot(id) ON DELETE CASCADE,
        go_id text NOT NULL,
        name text,
        definition text,
        aspect text CHECK (aspect IN ('F','P','C')),
        is_obsolete boolean NOT NULL DEFAULT false,
        UNIQUE (go_id, ontology_snapshot_id)
      )`);
    await q.query(`
      CREATE TABLE go_term_alt_id (
        ontology_snapshot_id uuid NOT NULL REFERENCES ontology_snapshot(id) ON DELETE CASCADE,
        alt_id text NOT NULL,
        go_term_id integer NOT NULL REFERENCES go_term(id) ON DELETE CASCADE,
        PRIMARY KEY (ontology_snapshot_id, alt_id)
      )`);
    await q.query(`
      CREATE TABLE go_term_relationship (
        id serial PRIMARY KEY,
        ontology_snapshot_id uuid NOT NULL REFERENCES ontology_snapshot(id) ON DELETE CASCADE,
        child_go_term_id integer NOT NULL REFERENCES go_term(id) ON DELETE CASCADE,
        parent_go_term_id integer NOT NULL REFERENCES go_term(id) ON DELETE CASCADE,
        relation_type text NOT NULL CHECK (relation_type IN ('is_a','part_of','regulates','negatively_regulates','positively_regulates'))
      )`);
    await q.query(`CREATE INDEX go_term_relationship_child_idx ON go_term_relationship (child_go_term_id)`);
    await q.query(`CREATE INDEX go_term_relationship_parent_idx ON go_term_relationship (parent_go_term_id)`);
    await q.query(`
      CREATE TABLE sequence (
        id serial PRIMARY KEY,
        sequence text NOT NULL,
        sequence_hash text NOT NULL UNIQUE CHECK (sequence_hash ~ '^[0-9a-f]{32}$'),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`
      CREATE TABLE protein (
        accession text PRIMARY KEY,
        canonical_accession text NOT NULL,
        is_canonical boolean NOT NULL DEFAULT true,
        isoform_index integer,
        sequence_id integer REFERENCES sequence(id) ON DELETE SET NULL,
        entry_name text,
        gene_name text,
        organism text,
        taxonomy_id text,
        length integer,
        reviewed boolean,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX protein_canonical_idx ON protein (canonical_accession)`);
    await q.query(`CREATE INDEX protein_sequence_idx ON protein (sequence_id)`);
    const metadataColumns = [
      'absorption',
      'active_site',
      'activity_regulation',
      'binding_site',
      'catalytic_activity',
      'cofactor',
      'dna_binding',
      'ec_number',
      'features',
      'function_cc',
      'keywords',
      'kinetics',
      'pathway',
      'ph_dependence',
      'redox_potential',
      'rhea_id',
      'site',
      'temperature_dependence',
    ];
    await q.query(`
      CREATE TABLE protein_uniprot_metadata (
        canonical_accession text PRIMARY KEY,
        ${metadataColumns.map((c) => `${c} text`).join(',\n        ')},
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`
      CREATE TABLE annotation_set (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        source text NOT NULL CHECK (source IN ('goa','quickgo')),
        source_version text NOT NULL,
        ontology_snapshot_id uuid NOT NULL REFERENCES ontology_snapshot(id),
        source_url text,
        job_id uuid,
        annotation_count integer NOT NULL DEFAULT 0,
        stats jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`
      CREATE TABLE protein_go_annotation (
        id bigserial PRIMARY KEY,
        annotation_set_id uuid NOT NULL REFERENCES annotation_set(id) ON DELETE CASCADE,
        protein_accession text NOT NULL,
        go_term_id integer NOT NULL REFERENCES go_term(id),
        go_id text NOT NULL,
        aspect text CHECK (aspect IN ('F','P','C')),
        qualifier text,
        is_not boolean NOT NULL DEFAULT false,
        evidence_code text NOT NULL,
        db text,
        db_object_symbol text,
        db_reference text,
        with_from text,
        taxon_id text,
        annotation_date date,
        assigned_by text,
        annotation_extension text,
        gene_product_form_id text
      )`);
    await q.query(
      `CREATE INDEX protein_go_annotation_set_protein_idx ON protein_go_annotation (annotation_set_id, protein_accession)`,
    );
    await q.query(
      `CREATE INDEX protein_go_annotation_set_term_idx ON protein_go_annotation (annotation_set_id, go_term_id)`,
    );
    await q.query(
      `CREATE INDEX protein_go_annotation_protein_idx ON protein_go_annotation (protein_accession)`,
    );
    await q.query(`
      CREATE TABLE go_cooccurrence (
        annotation_set_id uuid NOT NULL REFERENCES annotation_set(id) ON DELETE CASCADE,
        go_term_a integer NOT NULL,
        go_term_b integer NOT NULL,
        protein_count integer NOT NULL,
        PRIMARY KEY (annotation_set_id, go_term_a, go_term_b)
      )`);
    await q.query(`
      CREATE TABLE go_term_frequency (
        annotation_set_id uuid NOT NULL REFERENCES annotation_set(id) ON DELETE CASCADE,
        go_term_id integer NOT NULL,
        protein_count integer NOT NULL,
        PRIMARY KEY (annotation_set_id, go_term_id)
      )`);
    await q.query(`
      CREATE TABLE query_set (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        description text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`
      CREATE TABLE query_set_entry (
        id serial PRIMARY KEY,
        query_set_id uuid NOT NULL REFERENCES query_set(id) ON DELETE CASCADE,
        accession text NOT NULL,
        sequence_id integer NOT NULL REFERENCES sequence(id),
        species text,
        taxonomy_id integer,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (query_set_id, accession)
      )`);
    await q.query(`CREATE INDEX query_set_entry_sequence_idx ON query_set_entry (sequence_id)`);
    await q.query(`
      CREATE TABLE interpro_annotation (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        protein_accession text NOT NULL,
        accession text NOT NULL,
        source_db text NOT NULL,
        start integer NOT NULL CHECK (start >= 1),
        "end" integer NOT NULL,
        evidence text,
        ipr_release text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CHECK ("end" >= start)
      )`);
    await q.query(`CREATE INDEX interpro_annotation_protein_idx ON interpro_annotation (protein_accession)`);
    await q.query(`
      CREATE TABLE interpro_go_mapping (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        ipr_accession text NOT NULL,
        go_id text NOT NULL,
        evidence text,
        source_version text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (ipr_accession, go_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'interpro_go_mapping',
      'interpro_annotation',
      'query_set_entry',
      'query_set',
      'go_term_frequency',
      'go_cooccurrence',
      'protein_go_annotation',
      'annotation_set',
      'protein_uniprot_metadata',
      'protein',
      'sequence',
      'go_term_relationship',
      'go_term_alt_id',
      'go_term',
      'ontology_snapshot',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
