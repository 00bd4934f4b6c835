/**
 * Reads an RFC 8288 Link header into relation -> target URL, e.g. UniProt REST paging:
 * `<https://rest.uniprot.org/uniprotkb/search?query=...&cursor=...&size=500>; rel="next"`.
 * Relation names are lower-cased (they are case-insensitive); a link with several relations
 * (`rel="next last"`) is listed under each; when two links share a relation the first wins.
 * Targets are returned as written: resolving relative ones needs the request URL.
 * Malformed parts are skipped, never thrown on: the header comes from a remote server.
 */
export function parseLinkHeader(value: string | null): Map<string, string> {
  const links = new Map<string, string>();
  if (value === null) return links;
  const cursor = new Cursor(value);
  while (!cursor.done()) {
    cursor.skip(/[\s,]*/y);
    if (cursor.done()) break;
    const target = cursor.take(/<([^>]*)>/y);
    if (target === null) {
      cursor.skipLinkValue();
      continue;
    }
    const params = readParams(cursor);
    for (const rel of (params.get('rel') ?? '').split(/\s+/)) {
      const name = rel.toLowerCase();
      if (name !== '' && !links.has(name)) links.set(name, target);
    }
  }
  return links;
}

/** `; name="value"; name=token ...` up to the comma that ends a link-value; first occurrence wins. */
function readParams(cursor: Cursor): Map<string, string> {
  const params = new Map<string, string>();
  for (;;) {
    cursor.skip(/\s*/y);
    if (cursor.take(/;/y) === null) {
      // Anything other than ';' or ',' here is garbage: drop the rest of this link-value.
      if (!cursor.done() && cursor.peek() !== ',') cursor.skipLinkValue();
      return params;
    }
    const name = cursor.take(/\s*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)/y)?.toLowerCase();
    if (name === undefined) continue;
    let paramValue = '';
    if (cursor.take(/\s*=\s*/y) !== null) {
      // An unterminated quote runs to the end of the header rather than losing the parameter.
      const quoted = cursor.take(/"((?:[^"\\]|\\.)*)"?/y);
      paramValue = quoted === null ? (cursor.take(/([^\s;,]*)/y) ?? '') : quoted.replace(/\\(.)/g, '$1');
    }
    if (!params.has(name)) params.set(name, paramValue);
  }
}

/** A position in the header text, advanced by sticky regular expressions. */
class Cursor {
  private position = 0;

  constructor(private readonly text: string) {}

  done(): boolean {
    return this.position >= this.text.length;
  }

  peek(): string {
    return this.text.charAt(this.position);
  }

  skip(pattern: RegExp): void {
    this.take(pattern);
  }

  /** Matches `pattern` (sticky) here; returns its first group (or the whole match) and moves past it. */
  take(pattern: RegExp): string | null {
    pattern.lastIndex = this.position;
    const match = pattern.exec(this.text);
    if (match === null) return null;
    this.position = pattern.lastIndex;
    return match[1] ?? match[0];
  }

  /** Moves to the next comma outside <...> and quotes: the start of the next link-value. */
  skipLinkValue(): void {
    this.skip(/(?:<[^>]*>|"(?:[^"\\]|\\.)*"?|[^,<"])*/y);
    if (this.peek() === ',') this.position += 1;
    else if (!this.done()) this.position += 1;
  }
}
