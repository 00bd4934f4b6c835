import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpClient } from './http-client';
import { SHARED_DATA_DIR } from './embedding-workload';
import { WORKSPACE_ROOT } from './test-environment';
import { runJobToSuccess, TestJob } from './wait-for';

/**
 * Converts a gene2go TSV to GAF with the converter the README documents, run as users run it, and
 * loads it as a GOA annotation set of the snapshot; returns the set's id.
 */
export async function loadTsvAnnotations(
  api: HttpClient,
  input: {
    snapshotId: string;
    tsv: string;
    gaf: string;
    sourceVersion: string;
    /**
     * Loads even when most GO ids are not live in the snapshot (`max_unresolved_ratio: 1`): ground
     * truth at t1 resolved against the t0 release drops the terms created since, as the holdout
     * protocol wants; any other file loads with the service's default tolerance.
     */
    tolerateUnresolved?: boolean;
  },
): Promise<string> {
  execFileSync(process.execPath, [
    '-r',
    join(WORKSPACE_ROOT, 'tools/register.js'),
    join(WORKSPACE_ROOT, 'tools/data/tsv-to-gaf.ts'),
    input.tsv,
    input.gaf,
  ]);
  const job = await runJobToSuccess<TestJob>(api, '/v1/annotations/sets/load-goa', {
    ontology_snapshot_id: input.snapshotId,
    gaf_url: input.gaf,
    source_version: input.sourceVersion,
    ...(input.tolerateUnresolved === true ? { max_unresolved_ratio: 1 } : {}),
  });
  return job.result!['annotation_set_id'] as string;
}

/** Inserts the FASTA's proteins, registers the k-mer config and embeds every protein; returns the config id. */
export async function embedProteinsWithKmer(api: HttpClient, fasta: string): Promise<string> {
  await runJobToSuccess<TestJob>(api, '/v1/proteins/insert', { source_url: fasta });
  const config = await api.post<{ id: string }>('/v1/embeddings/configs', {
    model_name: 'kmer-v1',
    model_backend: 'kmer',
  });
  await runJobToSuccess<TestJob>(api, '/v1/embeddings/compute', { embedding_config_id: config.body.id });
  return config.body.id;
}

/** The sequence of one accession of the tiny holdout (tiny/sequences.fasta), on one line. */
export function tinySequence(accession: string): string {
  const record = readFileSync(join(SHARED_DATA_DIR, 'tiny/sequences.fasta'), 'utf8')
    .split('>')
    .find((r) => r.split(/\s/, 1)[0] === accession);
  if (record === undefined) throw new Error(`${accession} is not in the tiny holdout`);
  return record.slice(record.indexOf('\n') + 1).replace(/\s/g, '');
}

/**
 * A close homolog of a sequence that is not the sequence itself: one residue in 25 changed (96 %
 * identity), so DIAMOND finds it and the known-annotation rule (same sequence) does not apply.
 */
export function mutated(sequence: string): string {
  return [...sequence].map((c, i) => (i % 25 === 12 ? (c === 'A' ? 'G' : 'A') : c)).join('');
}
