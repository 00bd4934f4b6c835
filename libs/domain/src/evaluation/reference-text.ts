/**
 * Text rules of the reference evaluator, which is Python: files are read in text mode (universal
 * newlines), lines are cut with `str.split()` (any run of whitespace) and numbers with `float()`.
 * Reproducing them is what makes "a header line crashes" and "a blank last line crashes" come out the
 * same as in the reference.
 */

/** Python's `str.isspace` set (it includes `\n` and `\r`; the scanners test for those first). */
function isPythonSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13) || (code >= 28 && code <= 31);
  // Printable ASCII and Latin-1 letters (nearly every character of our files) leave here.
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

const LF = 10;
const CR = 13;

/**
 * Calls `onLine` for every line as Python's file iteration yields it: `\n`, `\r\n` and a lone `\r`
 * end a line, and a final line break does not start an extra (empty) line.
 */
export function forEachLine(text: string, onLine: (line: string, lineNumber: number) => void): void {
  let start = 0;
  let lineNumber = 0;
  const length = text.length;
  while (start < length) {
    let end = start;
    while (end < length) {
      const code = text.charCodeAt(end);
      if (code === LF || code === CR) break;
      end++;
    }
    onLine(text.slice(start, end), ++lineNumber);
    if (end < length && text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF) end++;
    start = end + 1;
  }
}

/**
 * Splits every line of `text` like Python's `line.split()`, without building the line strings: the
 * hot path of a five-million-line prediction file. `tokens` is reused between calls and holds the
 * first `maxTokens` tokens; `count` is the number of tokens on the line, capped at `maxTokens + 1`
 * so callers can still tell "exactly N" from "more than N".
 */
export function forEachTokenLine(
  text: string,
  maxTokens: number,
  onLine: (tokens: readonly string[], count: number, lineNumber: number) => void,
): void {
  const tokens: string[] = [];
  const length = text.length;
  let position = 0;
  let lineNumber = 0;
  while (position < length) {
    let count = 0;
    let code = text.charCodeAt(position);
    while (position < length && code !== LF && code !== CR) {
      if (isPythonSpace(code)) {
        code = text.charCodeAt(++position);
        continue;
      }
      const tokenStart = position;
      while (position < length && code !== LF && code !== CR && !isPythonSpace(code)) {
        code = text.charCodeAt(++position);
      }
      if (count < maxTokens) tokens[count] = text.slice(tokenStart, position);
      if (count <= maxTokens) count++;
    }
    onLine(tokens, count, ++lineNumber);
    if (position < length && code === CR && text.charCodeAt(position + 1) === LF) position++;
    position++;
  }
}

/** Python's `str.split()` on one line. */
export function splitPythonWhitespace(line: string): string[] {
  const found: string[] = [];
  forEachTokenLine(line, Number.MAX_SAFE_INTEGER, (tokens, count) => {
    for (let i = 0; i < count; i++) found.push(tokens[i] ?? '');
  });
  return found;
}

/** Python's `str.strip()`. */
export function stripPython(line: string): string {
  let start = 0;
  let end = line.length;
  while (start < end && isPythonSpace(line.charCodeAt(start))) start++;
  while (end > start && isPythonSpace(line.charCodeAt(end - 1))) end--;
  return line.slice(start, end);
}

const DIGIT_PART = String.raw`\d(?:_?\d)*`;
const PYTHON_FLOAT = new RegExp(
  String.raw`^[+-]?(?:(?:(?:${DIGIT_PART})?\.${DIGIT_PART}|${DIGIT_PART}\.?)(?:[eE][+-]?${DIGIT_PART})?|inf(?:inity)?|nan)$`,
  'i',
);

/** True when every character is a digit, '.', 'e', 'E', '+' or '-'. */
function isPlainDecimal(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const code = token.charCodeAt(i);
    const isDigit = code >= 48 && code <= 57;
    if (!isDigit && code !== 46 && code !== 101 && code !== 69 && code !== 43 && code !== 45) return false;
  }
  return true;
}

/**
 * Python's `float(token)`, or null where Python raises ValueError. Decimal to double conversion is
 * correctly rounded in both languages, so the value is bit-identical.
 *
 * JS `Number()` is not a substitute on its own: it accepts '0x1f', 'Infinity' and '' and rejects 'inf',
 * 'nan' and '1_000'. On strings made only of digits, '.', exponent and sign characters the two
 * grammars coincide, so that common case skips the regular expression.
 */
export function parsePythonFloat(token: string): number | null {
  const text = stripPython(token);
  if (text !== '' && isPlainDecimal(text)) {
    const value = Number(text);
    return Number.isNaN(value) ? null : value;
  }
  if (!PYTHON_FLOAT.test(text)) return null;
  const lower = text.toLowerCase();
  const negative = lower.startsWith('-');
  const body = lower.replace(/^[+-]/, '');
  if (body === 'nan') return Number.NaN;
  if (body.startsWith('inf')) return negative ? -Infinity : Infinity;
  return Number(text.replaceAll('_', ''));
}
