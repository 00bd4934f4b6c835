import { createHash } from 'node:crypto';
import { INSTALL_REFERENCE, InstallReferencePayload } from '@svc/contracts';
import { parseSha256Sums, referenceSpec, REFERENCE_CATALOG, sourceOf, type ReferenceFile } from '@svc/domain';
import { defineOperation, JobContext, JobError } from '@svc/jobs';
import type { InstalledFile, InstalledReference } from '@svc/persistence';
import { readText, SourceError, sourcePolicyOf, stageSource } from '@svc/platform';
import { insertProteinsOperation } from './insert-proteins.operation';
import { loadGoaAnnotationsOperation } from './load-goa-annotations.operation';
import { loadOntologySnapshotOperation } from './load-ontology-snapshot.operation';
import { sourceFailure } from './source-failure';

type Staged = InstalledFile & { uri: string; file: ReferenceFile };

/** The mirror's SHA256SUMS (path -> digest), or an empty map when it publishes none. */
async function mirrorSums(context: JobContext<InstallReferencePayload>): Promise<Map<string, string>> {
  const mirror = context.payload.mirror;
  if (mirror === undefined) return new Map();
  const url = sourceOf({ role: 'ontology', url: '', mirrorPath: 'SHA256SUMS' }, mirror);
  try {
    return parseSha256Sums(await readText(url, sourcePolicyOf(context.config, context.artifacts)));
  } catch (error) {
    if (error instanceof SourceError && error.code === 'source_not_found') return new Map();
    throw sourceFailure(error);
  }
}

/**
 * Installs a named reference of the catalog (docs/reference.md): stages each file (GO release, GOA
 * annotations, UniProt sequences) from its canonical source or the mirror into the artifact store,
 * checks its SHA-256 against the catalog's pin or the mirror's SHA256SUMS, then loads the ontology,
 * the annotations against it and the proteins with their sequences, and records the install. A
 * rerun with the same files reuses the recorded install; the ontology is reused by content. Progress
 * counts the six steps; each step's own events say what it did.
 */
export const installReferenceOperation = defineOperation<InstallReferencePayload>({
  spec: INSTALL_REFERENCE,
  async execute(context) {
    const { job, payload, emit, repos, config, artifacts, setProgress, throwIfCancelled } = context;
    const spec = referenceSpec(payload.name);
    if (spec === null)
      throw new JobError(
        'unknown_reference',
        `no reference named ${payload.name} in the catalog (${REFERENCE_CATALOG.map((s) => s.name).join(', ')})`,
      );
    const started = Date.now();
    const mirror = payload.mirror ?? null;
    const policy = sourcePolicyOf(config, artifacts);
    const steps = spec.files.length * 2;
    await setProgress(0, steps);
    const sums = await mirrorSums(context);
    const staged: Staged[] = [];
    for (const file of spec.files) {
      const source = sourceOf(file, mirror);
      const key = `references/${spec.name}/${job.id}/${file.role}`;
      let copy: { uri: string; sha256: string; bytes: number };
      try {
        copy = await stageSource(source, policy, artifacts, key);
      } catch (error) {
        throw sourceFailure(error);
      }
      const expected = file.sha256 ?? sums.get(file.mirrorPath) ?? null;
      const checked: InstalledFile['checked'] =
        file.sha256 !== undefined ? 'pinned' : expected !== null ? 'mirror' : 'unverified';
      if (expected !== null && expected !== copy.sha256) {
        await artifacts.delete(key);
        throw new JobError(
          'checksum_mismatch',
          `the ${file.role} file ${source} has SHA-256 ${copy.sha256}, not the ${checked === 'pinned' ? "catalog's" : "mirror's SHA256SUMS"} ${expected}: it was changed or cut short; nothing was loaded`,
        );
      }
      staged.push({
        role: file.role,
        source,
        sha256: copy.sha256,
        bytes: copy.bytes,
        checked,
        uri: copy.uri,
        file,
      });
      await emit('install_reference.staged', null, {
        role: file.role,
        source,
        sha256: copy.sha256,
        bytes: copy.bytes,
        checked,
      });
      await setProgress(staged.length, steps);
      await throwIfCancelled();
    }
    const contentSha256 = createHash('sha256')
      .update(staged.map((s) => `${s.role} ${s.sha256}`).join('\n'))
      .digest('hex');
    const files: InstalledFile[] = staged.map(({ role, source, sha256, bytes, checked }) => ({
      role,
      source,
      sha256,
      bytes,
      checked,
    }));
    const of = (role: ReferenceFile['role']): Staged => staged.find((s) => s.role === role)!;

    const before = await repos.referenceBundles.findInstalled(spec.name, contentSha256);
    if (before !== null) {
      await setProgress(steps, steps);
      const result = { ...resultOf(before), reused: true, elapsed_s: elapsed(started) };
      await emit(
        'install_reference.done',
        'these files are installed already; the install is reused',
        result,
      );
      return result;
    }

    const ontology = finished(
      await loadOntologySnapshotOperation.execute({ ...context, payload: { obo_url: of('ontology').uri } }),
    );
    const snapshotId = String(ontology['ontology_snapshot_id']);
    await setProgress(spec.files.length + 1, steps);
    await throwIfCancelled();
    const annotations = of('annotations');
    const loaded = finished(
      await loadGoaAnnotationsOperation.execute({
        ...context,
        payload: {
          ontology_snapshot_id: snapshotId,
          gaf_url: annotations.uri,
          source_version: `${spec.name} ${lastSegment(annotations.file.url)}@${annotations.sha256.slice(0, 12)}`,
        },
      }),
    );
    await setProgress(spec.files.length + 2, steps);
    await throwIfCancelled();
    const proteins = finished(
      await insertProteinsOperation.execute({ ...context, payload: { source_url: of('sequences').uri } }),
    );
    await setProgress(steps, steps);
    const stats = {
      ontology_version: ontology['obo_version'],
      ontology_terms: ontology['term_count'],
      annotations: loaded['annotation_count'],
      annotation_records: loaded['records'],
      unresolved_go_ids: Number(loaded['unknown_go_ids'] ?? 0) + Number(loaded['obsolete_go_ids'] ?? 0),
      proteins: proteins['proteins'],
      sequences: proteins['sequences'],
    };
    const installed = await repos.referenceBundles.record({
      name: spec.name,
      contentSha256,
      ontologySnapshotId: snapshotId,
      annotationSetId: String(loaded['annotation_set_id']),
      files,
      stats,
      mirror,
      jobId: job.id,
    });
    const result = { ...resultOf(installed), reused: false, elapsed_s: elapsed(started) };
    await emit('install_reference.done', null, result);
    return result;
  },
});

function resultOf(installed: InstalledReference): Record<string, unknown> {
  return {
    name: installed.name,
    content_sha256: installed.content_sha256,
    ontology_snapshot_id: installed.ontology_snapshot_id,
    ontology_version: installed.ontology_version,
    annotation_set_id: installed.annotation_set_id,
    annotation_set_label: installed.annotation_set_label,
    files: installed.files,
    stats: installed.stats,
  };
}

/** A load's result: these loads finish in the job itself (none defers to steps). */
function finished(
  result: Awaited<ReturnType<typeof insertProteinsOperation.execute>>,
): Record<string, unknown> {
  if (result === null || result === undefined || 'deferred' in result)
    throw new Error('a reference load deferred to steps, which install_reference cannot follow');
  return result;
}

function lastSegment(url: string): string {
  return new URL(url).pathname.split('/').pop() || 'annotations';
}

function elapsed(started: number): number {
  return Number(((Date.now() - started) / 1000).toFixed(2));
}
