import { LOAD_ONTOLOGY_SNAPSHOT, LoadOntologySnapshotPayload } from '@svc/contracts';
import { OboParser } from '@svc/domain';
import { defineOperation, JobError } from '@svc/jobs';
import { OntologyVersionConflict, type SavedSnapshot } from '@svc/persistence';
import { readLines, sourcePolicyOf } from '@svc/platform';
import { sourceFailure } from './source-failure';

/**
 * An id heading two [Term] stanzas (a snapshot stores each term once); named in the message only
 * when it looks like an id.
 */
function firstDuplicateTermId(terms: readonly { id: string }[]): string | null {
  const seen = new Set<string>();
  for (const { id } of terms) {
    if (seen.has(id)) return /^[A-Za-z][\w.-]{0,30}:[\w.-]{1,40}$/.test(id) ? id : '(an id)';
    seen.add(id);
  }
  return null;
}

/** The answer to a file that reuses a loaded release's data-version with other content. */
function versionConflict(conflict: OntologyVersionConflict, terms: number): JobError {
  const { stored, contentSha256 } = conflict;
  return new JobError(
    'ontology_version_conflict',
    `data-version ${stored.obo_version} is loaded already (snapshot ${stored.id}, ${stored.term_count} terms, ` +
      `content sha256 ${stored.content_sha256.slice(0, 12)}…) and this file has other content ` +
      `(${terms} terms, content sha256 ${contentSha256.slice(0, 12)}…); a release is its content: ` +
      'give a subset or an edited copy a data-version of its own',
  );
}

/**
 * Streams an OBO release into a snapshot. A release already loaded (same data-version, same content)
 * is reused; the same data-version with other content fails `ontology_version_conflict`.
 */
export const loadOntologySnapshotOperation = defineOperation<LoadOntologySnapshotPayload>({
  spec: LOAD_ONTOLOGY_SNAPSHOT,
  async execute({ payload, emit, repos, config, artifacts, throwIfCancelled }) {
    const started = Date.now();
    const parser = new OboParser();
    let lines = 0;
    try {
      for await (const line of readLines(payload.obo_url, sourcePolicyOf(config, artifacts))) {
        parser.push(line);
        lines += 1;
        if (lines % 200_000 === 0) await throwIfCancelled();
      }
    } catch (error) {
      throw sourceFailure(error);
    }
    const document = parser.finish();
    const version = document.header.dataVersion;
    if (version === null || version.trim() === '') {
      throw new JobError('invalid_obo', 'the OBO file has no data-version header; it identifies the release');
    }
    if (document.terms.length === 0) throw new JobError('invalid_obo', 'the OBO file holds no [Term] stanza');
    const duplicate = firstDuplicateTermId(document.terms);
    if (duplicate !== null)
      throw new JobError('invalid_obo', `the OBO file defines term ${duplicate} more than once`);
    await emit('load_ontology_snapshot.parsed', null, {
      lines,
      terms: document.terms.length,
      obo_version: version,
    });
    await throwIfCancelled();
    let saved: SavedSnapshot;
    try {
      saved = await repos.ontologies.saveSnapshot(document, version, payload.obo_url);
    } catch (error) {
      if (error instanceof OntologyVersionConflict) throw versionConflict(error, document.terms.length);
      throw error;
    }
    const result = {
      ontology_snapshot_id: saved.snapshot.id,
      obo_version: version,
      content_sha256: saved.snapshot.content_sha256,
      created: saved.created,
      term_count: saved.snapshot.term_count,
      relationship_count: saved.snapshot.relationship_count,
      alt_ids: saved.alt_ids,
      skipped_relationships: saved.skipped_relationships,
      elapsed_s: Number(((Date.now() - started) / 1000).toFixed(2)),
    };
    await emit(
      'load_ontology_snapshot.done',
      saved.created ? null : 'release already loaded; existing snapshot reused',
      result,
    );
    return result;
  },
});
