import { DomainError } from '@svc/contracts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Follows the nesting depth of JSON text fed in pieces, without building anything: one pass, constant
 * memory. Brackets inside strings (escaped quotes included) do not count. Text that is not valid JSON
 * is left for the parser to refuse; the scanner only answers whether the depth stayed within bounds.
 */
export class JsonDepthScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private exceeded = false;

  constructor(private readonly maxDepth: number) {}

  /** Feeds the next piece of text; false once the nesting has gone deeper than `maxDepth`. */
  feed(text: string): boolean {
    if (this.exceeded) return false;
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) this.inString = false;
      } else if (code === QUOTE) {
        this.inString = true;
      } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        this.depth += 1;
        if (this.depth > this.maxDepth) {
          this.exceeded = true;
          return false;
        }
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        this.depth -= 1;
      }
    }
    return true;
  }
}

/** Whether JSON text nests objects and arrays at most `maxDepth` levels deep (`{}` is one level). */
export function isJsonDepthWithin(text: string, maxDepth: number): boolean {
  return new JsonDepthScanner(maxDepth).feed(text);
}

/** The 422 for a body nested deeper than the configured cap. */
export function jsonTooDeep(maxDepth: number): DomainError {
  return new DomainError(
    'validation_error',
    `the JSON body nests objects and arrays more than ${maxDepth} levels deep (json_max_depth)`,
    { max_depth: maxDepth },
    [{ path: '', message: `nested more than ${maxDepth} levels deep` }],
  );
}

/** The size of a value written as JSON, in UTF-8 bytes; Infinity for what cannot be written. */
export function jsonByteLength(value: unknown): number {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
  } catch {
    // Cycles, BigInt, or a string past V8's maximum length: in any case too large to store.
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * 413 `payload_too_large` when `value`, written as JSON, takes more than `limitBytes` bytes. For
 * stored free-form JSON (job payloads, experiment configs) that the body limit alone bounds too
 * loosely: whatever is stored is also served back, to anonymous readers among others.
 */
export function assertJsonWithin(value: unknown, limitBytes: number, field: string): void {
  const bytes = jsonByteLength(value);
  if (bytes <= limitBytes) return;
  throw new DomainError(
    'payload_too_large',
    `${field} takes ${Number.isFinite(bytes) ? `${bytes} bytes` : 'too many bytes'} as JSON; the limit is ${limitBytes} bytes`,
    { field, limit_bytes: limitBytes },
  );
}
