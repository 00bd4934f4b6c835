import { DataSource } from 'typeorm';
import { DONOR_EVIDENCE_CODES, type DonorAnnotation } from '@svc/domain';
import { queryOne, queryRows } from '../sql';
import { EmbeddingRepository } from '../embeddings/embedding.repository';
import { readSequencePoolPage } from './sequence-pool.pages';

export interface ReferenceProtein {
  readonly accession: string;
  readonly canonicalAccession: string;
  readonly sequenceId: number;
}

/** Reference proteins with their (chunk-averaged) vectors and the annotations they may donate. */
export interface ReferencePool {
  readonly proteins: ReferenceProtein[];
  readonly dimensions: number;
  /** Row-major, one row per protein, not yet normalised. */
  readonly vectors: Float32Array;
  readonly annotations: DonorAnnotation[][];
}

/** Reference proteins with their sequences and donor annotations (the DIAMOND search's pool). */
export interface SequencePool {
  readonly proteins: ReferenceProtein[];
  readonly sequences: string[];
  readonly annotations: DonorAnnotation[][];
}

/** One donor protein of a streamed homology pool, its donor annotations in load order. */
export interface SequencePoolPage {
  readonly accession: string;
  readonly canonicalAccession: string;
  readonly sequenceId: number;
  readonly sequence: string;
  readonly goTermIds: number[];
  readonly goIds: string[];
  readonly aspects: ('F' | 'P' | 'C')[];
  readonly evidenceCodes: string[];
  readonly qualifiers: (string | null)[];
}

export interface QueryProtein {
  readonly accession: string;
  readonly sequenceId: number;
  readonly taxonomyId: string | null;
}

/** Mean of a sequence's chunk vectors, so a chunked sequence is one point in the index. */
export function averageChunks(chunks: Float32Array[]): Float32Array {
  const first = chunks[0];
  if (first === undefined) return new Float32Array(0);
  if (chunks.length === 1) return first;
  const out = new Float32Array(first.length);
  for (const c of chunks) for (let i = 0; i < out.length; i += 1) out[i] = out[i]! + c[i]!;
  for (let i = 0; i < out.length; i += 1) out[i] = out[i]! / chunks.length;
  return out;
}

/** The reads predict_go_terms needs: the reference pool, the queries and their vectors. */
export class ReferencePoolRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Proteins with an embedding for the config and at least one non-NOT annotation in the set (of the
   * aspect, when one is given), with those annotations. Ordered by accession so the pool, and so the
   * index rows, are the same on every worker.
   */
  async loadPool(input: {
    embeddingConfigId: string;
    annotationSetId: string;
    aspect: 'F' | 'P' | 'C' | null;
    donorEvidence: 'all' | 'experimental';
  }): Promise<ReferencePool> {
    const byProtein = await this.donorAnnotations(input.annotationSetId, input.aspect, input.donorEvidence);
    const proteins = await queryRows<{ accession: string; canonical_accession: string; sequence_id: number }>(
      this.db,
      `SELECT p.accession, p.canonical_accession, p.sequence_id FROM protein p
        WHERE p.accession = ANY($2::text[]) AND p.sequence_id IS NOT NULL
          AND EXISTS (SELECT 1 FROM embedding e WHERE e.embedding_config_id = $1 AND e.sequence_id = p.sequence_id)
        ORDER BY p.accession`,
      [input.embeddingConfigId, [...byProtein.keys()]],
    );
    const vectors = await this.vectorsBySequence(
      input.embeddingConfigId,
      proteins.map((p) => p.sequence_id),
    );
    const dimensions = vectors.values().next().value?.length ?? 0;
    const matrix = new Float32Array(proteins.length * dimensions);
    proteins.forEach((p, row) => matrix.set(vectors.get(p.sequence_id)!, row * dimensions));
    return {
      proteins: proteins.map((p) => ({
        accession: p.accession,
        canonicalAccession: p.canonical_accession,
        sequenceId: p.sequence_id,
      })),
      dimensions,
      vectors: matrix,
      annotations: proteins.map((p) => byProtein.get(p.accession) ?? []),
    };
  }

  /** Non-NOT annotations of the set a protein may donate (of one aspect, when given), by protein. */
  private async donorAnnotations(
    annotationSetId: string,
    aspect: 'F' | 'P' | 'C' | null,
    donorEvidence: 'all' | 'experimental',
  ): Promise<Map<string, DonorAnnotation[]>> {
    const rows = await queryRows<{
      protein_accession: string;
      go_term_id: number;
      go_id: string;
      aspect: 'F' | 'P' | 'C';
      qualifier: string | null;
      evidence_code: string;
    }>(
      this.db,
      `SELECT a.protein_accession, t.id AS go_term_id, t.go_id, t.aspect, a.qualifier, a.evidence_code
         FROM protein_go_annotation a JOIN go_term t ON t.id = a.go_term_id
        WHERE a.annotation_set_id = $1 AND NOT a.is_not AND t.aspect IS NOT NULL
          AND ($2::text IS NULL OR t.aspect = $2)
          AND ($3::text[] IS NULL OR a.evidence_code = ANY($3::text[]))
        ORDER BY a.protein_accession, a.id`,
      [annotationSetId, aspect, donorEvidence === 'experimental' ? DONOR_EVIDENCE_CODES : null],
    );
    const byProtein = new Map<string, DonorAnnotation[]>();
    for (const a of rows) {
      let list = byProtein.get(a.protein_accession);
      if (list === undefined) byProtein.set(a.protein_accession, (list = []));
      list.push({
        goTermId: a.go_term_id,
        goId: a.go_id,
        aspect: a.aspect,
        qualifier: a.qualifier,
        evidenceCode: a.evidence_code,
      });
    }
    return byProtein;
  }

  /**
   * The homology reference pool: proteins with a sequence and at least one non-NOT donor annotation
   * in the set, with those annotations and their sequences, ordered by accession. No embedding is
   * needed: DIAMOND aligns the sequences themselves.
   */
  async loadSequencePool(input: {
    annotationSetId: string;
    donorEvidence: 'all' | 'experimental';
    pageRows?: number;
  }): Promise<SequencePool> {
    const pool = {
      proteins: [] as ReferenceProtein[],
      sequences: [] as string[],
      annotations: [] as DonorAnnotation[][],
    };
    await this.streamSequencePool(input, (page) => {
      for (const p of page) {
        pool.proteins.push({
          accession: p.accession,
          canonicalAccession: p.canonicalAccession,
          sequenceId: p.sequenceId,
        });
        pool.sequences.push(p.sequence);
        pool.annotations.push(
          p.goTermIds.map((goTermId, i) => ({
            goTermId,
            goId: p.goIds[i]!,
            aspect: p.aspects[i]!,
            qualifier: p.qualifiers[i] ?? null,
            evidenceCode: p.evidenceCodes[i]!,
          })),
        );
      }
    });
    return pool;
  }

  /**
   * How large the homology pool of a set can be, read cheaply before anything is loaded so a worker
   * can refuse a pool it cannot hold: upper bounds of its donor proteins (proteins with a sequence, at
   * most one per annotation row) and of their annotations (the set's rows, NOT rows and other evidence
   * included).
   */
  async sequencePoolSize(annotationSetId: string): Promise<{ proteins: number; annotations: number }> {
    // Two reads of stored counts, whatever the set's size: no walk over its annotations.
    const row = await queryOne<{ proteins: string; annotations: string }>(
      this.db,
      `SELECT (SELECT count(*) FROM protein WHERE sequence_id IS NOT NULL) AS proteins,
              (SELECT annotation_count FROM annotation_set WHERE id = $1) AS annotations`,
      [annotationSetId],
    );
    if (row !== null) row.proteins = String(Math.min(Number(row.proteins), Number(row.annotations ?? 0)));
    return { proteins: Number(row?.proteins ?? 0), annotations: Number(row?.annotations ?? 0) };
  }

  /**
   * The homology pool of `loadSequencePool`, in the same order, handed over a page at a time
   * (keyset pages of about `pageRows` annotation rows), so a Swiss-Prot-sized pool is never held as
   * rows: the caller keeps what it needs of each page and writes the sequences out.
   */
  async streamSequencePool(
    input: { annotationSetId: string; donorEvidence: 'all' | 'experimental'; pageRows?: number },
    onPage: (page: SequencePoolPage[]) => Promise<void> | void,
  ): Promise<void> {
    const codes = input.donorEvidence === 'experimental' ? DONOR_EVIDENCE_CODES : null;
    const pageRows = input.pageRows ?? 50_000;
    // One snapshot for the whole walk; small indexed reads, so no JIT or parallel plans (their start-up
    // costs more than the read).
    await this.db.transaction('REPEATABLE READ', async (tx) => {
      await tx.query('SET LOCAL jit = off');
      await tx.query('SET LOCAL max_parallel_workers_per_gather = 0');
      const fetchPage = (from: string | null) =>
        readSequencePoolPage(tx, { annotationSetId: input.annotationSetId, codes, from, pageRows });
      // The next page is read while the caller works on this one.
      let next = fetchPage(null);
      for (;;) {
        const { page, bound } = await next;
        if (bound !== null) next = fetchPage(bound);
        try {
          if (page.length > 0) await onPage(page);
        } catch (error) {
          // The read in flight ends before the transaction does.
          if (bound !== null) await next.catch(() => undefined);
          throw error;
        }
        if (bound === null) return;
      }
    });
  }

  /** Content fingerprint of a homology pool's inputs: changes when annotations or proteins do. */
  async sequencePoolVersion(annotationSetId: string): Promise<string> {
    const [row] = await queryRows<{ version: string }>(
      this.db,
      `SELECT concat_ws(':', (SELECT annotation_count FROM annotation_set WHERE id = $1),
                             (SELECT count(*) FROM protein), (SELECT max(sequence_id) FROM protein)) AS version`,
      [annotationSetId],
    );
    return row?.version ?? '';
  }

  /** Whether any protein of the set with a sequence has a non-NOT annotation (the homology pool is not empty). */
  async hasSequenceReferences(annotationSetId: string): Promise<boolean> {
    const rows = await queryRows<{ found: boolean }>(
      this.db,
      `SELECT EXISTS (
         SELECT 1 FROM protein_go_annotation a JOIN protein p ON p.accession = a.protein_accession
          WHERE a.annotation_set_id = $1 AND NOT a.is_not AND p.sequence_id IS NOT NULL) AS found`,
      [annotationSetId],
    );
    return rows[0]?.found === true;
  }

  /** One vector per sequence (chunks averaged). */
  async vectorsBySequence(configId: string, sequenceIds: number[]): Promise<Map<number, Float32Array>> {
    const chunks = new Map<number, Float32Array[]>();
    for (const v of await new EmbeddingRepository(this.db).loadVectors(configId, sequenceIds)) {
      let list = chunks.get(v.sequenceId);
      if (list === undefined) chunks.set(v.sequenceId, (list = []));
      list.push(v.vector);
    }
    return new Map([...chunks].map(([id, list]) => [id, averageChunks(list)]));
  }

  /** Content fingerprint of a pool's inputs, for cache keys: changes when embeddings or annotations do. */
  async poolVersion(embeddingConfigId: string, annotationSetId: string): Promise<string> {
    const [row] = await queryRows<{ version: string }>(
      this.db,
      `SELECT concat_ws(':', (SELECT count(*) FROM embedding WHERE embedding_config_id = $1),
                             (SELECT max(id) FROM embedding WHERE embedding_config_id = $1),
                             (SELECT annotation_count FROM annotation_set WHERE id = $2),
                             (SELECT count(*) FROM protein)) AS version`,
      [embeddingConfigId, annotationSetId],
    );
    return row?.version ?? '';
  }

  /**
   * The GO ids the upload said are known of these queries of a query set (their header's GO=), by
   * accession (one entry per accession in a set); a query without any is absent.
   */
  async knownGoIds(querySetId: string, accessions: readonly string[]): Promise<Map<string, string[]>> {
    if (accessions.length === 0) return new Map();
    const rows = await queryRows<{ accession: string; known_go_ids: string[] }>(
      this.db,
      `SELECT accession, known_go_ids FROM query_set_entry
        WHERE query_set_id = $1 AND accession = ANY($2::text[]) AND known_go_ids IS NOT NULL`,
      [querySetId, accessions],
    );
    return new Map(rows.map((row) => [row.accession, row.known_go_ids]));
  }

  /** The queries of a query set, or every protein with an embedding for the config. */
  async queries(embeddingConfigId: string, querySetId: string | null): Promise<QueryProtein[]> {
    const rows =
      querySetId !== null
        ? await queryRows<{ accession: string; sequence_id: number; taxonomy_id: string | null }>(
            this.db,
            `SELECT accession, sequence_id, taxonomy_id::text AS taxonomy_id FROM query_set_entry
              WHERE query_set_id = $1 ORDER BY id`,
            [querySetId],
          )
        : await queryRows<{ accession: string; sequence_id: number; taxonomy_id: string | null }>(
            this.db,
            `SELECT p.accession, p.sequence_id, p.taxonomy_id FROM protein p
              WHERE p.sequence_id IS NOT NULL
                AND EXISTS (SELECT 1 FROM embedding e WHERE e.embedding_config_id = $1 AND e.sequence_id = p.sequence_id)
              ORDER BY p.accession`,
            [embeddingConfigId],
          );
    return rows.map((r) => ({
      accession: r.accession,
      sequenceId: r.sequence_id,
      taxonomyId: r.taxonomy_id,
    }));
  }

  /** How many queries a prediction covers: the query set's entries, or every protein embedded for the config. */
  async countQueries(embeddingConfigId: string, querySetId: string | null): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.db,
      querySetId !== null
        ? `SELECT count(*)::int AS n FROM query_set_entry WHERE query_set_id = $1`
        : `SELECT count(DISTINCT p.accession)::int AS n FROM protein p JOIN embedding e ON e.sequence_id = p.sequence_id
            WHERE e.embedding_config_id = $1`,
      [querySetId ?? embeddingConfigId],
    );
    return row?.n ?? 0;
  }

  /** Whether any query (of the set, or any protein without one) has a vector of the config. */
  async hasEmbeddedQueries(embeddingConfigId: string, querySetId: string | null): Promise<boolean> {
    const embedded = `EXISTS (SELECT 1 FROM embedding e WHERE e.embedding_config_id = $1 AND e.sequence_id = q.sequence_id)`;
    const rows =
      querySetId !== null
        ? await queryRows<{ found: boolean }>(
            this.db,
            `SELECT EXISTS (SELECT 1 FROM query_set_entry q WHERE q.query_set_id = $2 AND ${embedded}) AS found`,
            [embeddingConfigId, querySetId],
          )
        : await queryRows<{ found: boolean }>(
            this.db,
            `SELECT EXISTS (SELECT 1 FROM protein q WHERE q.sequence_id IS NOT NULL AND ${embedded}) AS found`,
            [embeddingConfigId],
          );
    return rows[0]?.found === true;
  }

  /** Whether any annotated reference protein of the set has a vector of the config (the pool is not empty). */
  async hasEmbeddedReferences(embeddingConfigId: string, annotationSetId: string): Promise<boolean> {
    const rows = await queryRows<{ found: boolean }>(
      this.db,
      `SELECT EXISTS (
         SELECT 1 FROM protein_go_annotation a
           JOIN protein p ON p.accession = a.protein_accession
           JOIN embedding e ON e.sequence_id = p.sequence_id AND e.embedding_config_id = $1
          WHERE a.annotation_set_id = $2 AND NOT a.is_not) AS found`,
      [embeddingConfigId, annotationSetId],
    );
    return rows[0]?.found === true;
  }

  async taxonomyIds(accessions: string[]): Promise<Map<string, string | null>> {
    const rows = await queryRows<{ accession: string; taxonomy_id: string | null }>(
      this.db,
      `SELECT accession, taxonomy_id FROM protein WHERE accession = ANY($1::text[])`,
      [accessions],
    );
    return new Map(rows.map((r) => [r.accession, r.taxonomy_id]));
  }

  async sequences(ids: number[]): Promise<Map<number, string>> {
    const rows = await new EmbeddingRepository(this.db).sequences(ids);
    return new Map(rows.map((r) => [r.id, r.sequence]));
  }

  /** Number of pool proteins annotated with each term (the `go_term_frequency` feature). */
  async termFrequencies(annotationSetId: string): Promise<Map<number, number>> {
    const rows = await queryRows<{ go_term_id: number; n: number }>(
      this.db,
      `SELECT go_term_id, count(DISTINCT protein_accession)::int AS n FROM protein_go_annotation
        WHERE annotation_set_id = $1 AND NOT is_not GROUP BY go_term_id`,
      [annotationSetId],
    );
    return new Map(rows.map((r) => [r.go_term_id, r.n]));
  }
}
