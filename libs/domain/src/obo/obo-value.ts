/**
 * Low-level pieces of OBO 1.2 tag-value syntax: `tag: value {trailing modifiers} ! comment`,
 * backslash escapes, and quoted strings (`def: "text" [dbxrefs]`).
 */

export interface TagValue {
  tag: string;
  value: string;
}

/** Splits `tag: value` at the first colon (values such as dates and URLs contain more). Null when there is none. */
export function splitTagValue(line: string): TagValue | null {
  const colon = line.indexOf(':');
  if (colon <= 0) return null;
  return { tag: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', W: ' ' };

/** Resolves OBO backslash escapes: `\n`, `\t`, `\W` (space); any other escaped character stands for itself. */
export function unescapeObo(text: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\\' && i + 1 < text.length) {
      const next = text[++i] as string;
      out += ESCAPES[next] ?? next;
    } else {
      out += ch;
    }
  }
  return out;
}

/**
 * An unquoted value without its `! comment` and trailing `{modifier}` block, escapes resolved.
 * The modifier block must be preceded by whitespace, so a name such as `N-{acetyl}glucosamine`
 * keeps its braces.
 */
export function plainValue(value: string): string {
  let end = value.length;
  let braceStart = -1;
  let braceEnd = -1;
  let depth = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '\\') {
      i++;
    } else if (ch === '!' && depth === 0) {
      end = i;
      break;
    } else if (ch === '{') {
      if (depth === 0) braceStart = i;
      depth++;
    } else if (ch === '}' && depth > 0) {
      depth--;
      if (depth === 0) braceEnd = i;
    }
  }
  let kept = value.slice(0, end).trimEnd();
  const modifierAtEnd = braceStart >= 0 && braceEnd === kept.length - 1 && braceStart < braceEnd;
  if (modifierAtEnd && (braceStart === 0 || /\s/.test(value[braceStart - 1] ?? ''))) {
    kept = kept.slice(0, braceStart).trimEnd();
  }
  return unescapeObo(kept);
}

/**
 * The text of a leading quoted string, escapes resolved, ignoring what follows the closing quote
 * (dbxrefs, modifiers, comment). A value that does not start with a quote is read as a plain value,
 * and an unterminated quote runs to the end of the line.
 */
export function quotedValue(value: string): string {
  if (!value.startsWith('"')) return plainValue(value);
  let close = -1;
  for (let i = 1; i < value.length; i++) {
    const ch = value[i];
    if (ch === '\\') {
      i++;
    } else if (ch === '"') {
      close = i;
      break;
    }
  }
  return unescapeObo(value.slice(1, close === -1 ? value.length : close));
}

/** Up to `count` whitespace-separated tokens of a plain value (modifier block and comment removed). */
export function firstTokens(value: string, count: number): string[] {
  const tokens = plainValue(value).split(/\s+/, count);
  return tokens.filter((token) => token.length > 0);
}
