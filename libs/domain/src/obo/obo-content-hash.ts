import { createHash } from 'node:crypto';
import type { OboDocument } from './obo-types';

/**
 * The SHA-256 of what a snapshot stores of a release, independent of file order, line endings,
 * comments and headers: per term its id, name, aspect, definition and obsolete flag, its alt ids
 * (those that are not also a primary id; one listed twice belongs to its first term, as stored) and
 * its parent edges to terms of the file. Two files with
 * the same `data-version` and different content (a subset, an edited copy) hash differently; the
 * same release rebuilt from a stored snapshot hashes as the file did.
 */
export function oboContentSha256(document: OboDocument): string {
  const primary = new Set(document.terms.map((t) => t.id));
  const claimed = new Set<string>();
  const lines = document.terms.map((term) => {
    const alts = term.altIds.filter((a) => !primary.has(a) && !claimed.has(a) && claimed.add(a)).sort();
    const parents = [
      ...new Set(term.parents.filter((p) => primary.has(p.id)).map((p) => `${p.relation} ${p.id}`)),
    ].sort();
    return JSON.stringify([term.id, term.name, term.aspect, term.definition, term.isObsolete, alts, parents]);
  });
  lines.sort();
  const hash = createHash('sha256');
  for (const line of lines) hash.update(line).update('\n');
  return hash.digest('hex');
}
