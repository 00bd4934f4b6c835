import { aspectOfNamespace } from './go-aspect';
import type { OboDocument, OboHeader, OboParent, OboTerm, RelationType } from './obo-types';
import { firstTokens, plainValue, quotedValue, splitTagValue } from './obo-value';

/** `relationship:` types kept as parent edges; any other type (has_part, occurs_in, ...) is dropped. */
const KEPT_RELATIONSHIPS: ReadonlySet<string> = new Set<RelationType>([
  'part_of',
  'regulates',
  'negatively_regulates',
  'positively_regulates',
]);

type Section = 'header' | 'term' | 'typedef' | 'other';

interface TermDraft {
  id: string | null;
  name: string | null;
  namespace: string | null;
  definition: string | null;
  isObsolete: boolean;
  altIds: string[];
  parents: OboParent[];
}

function emptyDraft(): TermDraft {
  return {
    id: null,
    name: null,
    namespace: null,
    definition: null,
    isObsolete: false,
    altIds: [],
    parents: [],
  };
}

function addParent(draft: TermDraft, id: string, relation: RelationType): void {
  if (!draft.parents.some((p) => p.id === id && p.relation === relation))
    draft.parents.push({ id, relation });
}

/**
 * Streaming OBO 1.2 reader for GO releases: feed lines with `push`, then call `finish` once.
 * Only the finished terms are kept, so memory follows the ontology, not the file.
 *
 * Kept: the header's format-version, data-version, ontology and date; from `[Term]` stanzas id, name,
 * namespace, def (text only), is_obsolete, alt_id, is_a and the propagating `relationship:` types.
 * `[Typedef]` stanzas contribute only their id; other stanza types are skipped whole.
 */
export class OboParser {
  private readonly header: OboHeader = { formatVersion: null, dataVersion: null, ontology: null, date: null };
  private readonly terms: OboTerm[] = [];
  private readonly typedefs: string[] = [];
  private section: Section = 'header';
  private draft: TermDraft = emptyDraft();
  private finished = false;

  push(line: string): void {
    if (this.finished) throw new Error('OboParser.push called after finish');
    const text = line.trim();
    // A UTF-8 byte order mark survives decoding as U+FEFF and would hide the first tag.
    const trimmed = text.charCodeAt(0) === 0xfeff ? text.slice(1).trimStart() : text;
    if (trimmed === '' || trimmed.startsWith('!')) return;

    if (trimmed.startsWith('[') && trimmed.endsWith(']')) {
      this.closeStanza();
      const kind = trimmed.slice(1, -1).trim();
      this.section = kind === 'Term' ? 'term' : kind === 'Typedef' ? 'typedef' : 'other';
      return;
    }

    const pair = splitTagValue(trimmed);
    // Lines without a tag (free text some hand-made files put in the header) carry nothing we use.
    if (pair === null) return;
    switch (this.section) {
      case 'header':
        this.headerTag(pair.tag, pair.value);
        return;
      case 'term':
        this.termTag(pair.tag, pair.value);
        return;
      case 'typedef':
        if (pair.tag === 'id') this.typedefs.push(plainValue(pair.value));
        return;
      case 'other':
        return;
    }
  }

  finish(): OboDocument {
    if (!this.finished) {
      this.closeStanza();
      this.finished = true;
    }
    return { header: { ...this.header }, terms: this.terms, typedefs: this.typedefs };
  }

  private headerTag(tag: string, value: string): void {
    const text = plainValue(value);
    switch (tag) {
      case 'format-version':
        this.header.formatVersion = text;
        break;
      case 'data-version':
        this.header.dataVersion = text;
        break;
      case 'ontology':
        this.header.ontology = text;
        break;
      case 'date':
        this.header.date = text;
        break;
      default:
        break;
    }
  }

  private termTag(tag: string, value: string): void {
    const draft = this.draft;
    switch (tag) {
      case 'id':
        // A repeated id tag is malformed; the first one names the stanza.
        draft.id ??= plainValue(value) || null;
        break;
      case 'name':
        draft.name = plainValue(value);
        break;
      case 'namespace':
        draft.namespace = plainValue(value);
        break;
      case 'def':
        draft.definition = quotedValue(value);
        break;
      case 'is_obsolete':
        draft.isObsolete = plainValue(value) === 'true';
        break;
      case 'alt_id': {
        const alt = plainValue(value);
        if (alt !== '' && !draft.altIds.includes(alt)) draft.altIds.push(alt);
        break;
      }
      case 'is_a': {
        const [target] = firstTokens(value, 1);
        if (target !== undefined) addParent(draft, target, 'is_a');
        break;
      }
      case 'relationship': {
        const [type, target] = firstTokens(value, 2);
        if (type !== undefined && target !== undefined && KEPT_RELATIONSHIPS.has(type)) {
          addParent(draft, target, type as RelationType);
        }
        break;
      }
      default:
        // intersection_of, synonym, xref, subset, ... are not needed downstream.
        break;
    }
  }

  private closeStanza(): void {
    if (this.section === 'term') {
      const d = this.draft;
      // A stanza without an id cannot be referenced by anything; dropping it is the only safe option.
      if (d.id !== null) {
        this.terms.push({
          id: d.id,
          name: d.name,
          namespace: d.namespace,
          aspect: aspectOfNamespace(d.namespace),
          definition: d.definition,
          isObsolete: d.isObsolete,
          altIds: d.altIds,
          parents: d.parents,
        });
      }
      this.draft = emptyDraft();
    }
  }
}

/** Reads an OBO document from lines (a readline interface, a generator, an array), without line endings or with. */
export async function readObo(lines: AsyncIterable<string> | Iterable<string>): Promise<OboDocument> {
  // A string is iterable too, but character by character; read it as the whole text it is.
  if (typeof lines === 'string') return parseObo(lines);
  const parser = new OboParser();
  if (Symbol.iterator in lines) {
    // A synchronous source is looped directly: `for await` would add a microtask per line.
    for (const line of lines) parser.push(line);
  } else {
    for await (const line of lines) parser.push(line);
  }
  return parser.finish();
}

/** Parses a whole OBO text. Lines are cut one at a time rather than split into one large array. */
export function parseObo(text: string): OboDocument {
  const parser = new OboParser();
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    parser.push(text.slice(start, end));
    start = end + 1;
  }
  return parser.finish();
}
