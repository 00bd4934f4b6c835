import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { byteLimit, splitLines } from './line-reader';

async function lines(chunks: (string | Buffer)[], max: number): Promise<string[]> {
  const out: string[] = [];
  const buffers = chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c));
  for await (const line of splitLines(Readable.from(buffers), max)) out.push(line);
  return out;
}

describe('splitLines', () => {
  const cases: { name: string; chunks: string[]; max: number; expected: string[] }[] = [
    { name: 'LF lines', chunks: ['a\nbb\nccc\n'], max: 10, expected: ['a', 'bb', 'ccc'] },
    { name: 'CR LF lines', chunks: ['a\r\nbb\r\n'], max: 10, expected: ['a', 'bb'] },
    { name: 'a last line without an ending', chunks: ['a\nb'], max: 10, expected: ['a', 'b'] },
    { name: 'empty lines', chunks: ['\n\r\n\n'], max: 10, expected: ['', '', ''] },
    { name: 'no input', chunks: [], max: 10, expected: [] },
    {
      name: 'lines split across chunks',
      chunks: ['ab', 'c\r', '\nde', 'f\n'],
      max: 10,
      expected: ['abc', 'def'],
    },
    { name: 'a line exactly at the limit', chunks: ['12345\n'], max: 5, expected: ['12345'] },
    { name: 'a CR LF line exactly at the limit', chunks: ['123', '45\r', '\n'], max: 5, expected: ['12345'] },
    { name: 'a last line exactly at the limit', chunks: ['1', '2345'], max: 5, expected: ['12345'] },
  ];
  it.each(cases)('$name', async ({ chunks, max, expected }) => {
    expect(await lines(chunks, max)).toEqual(expected);
  });

  it('decodes a UTF-8 character whose bytes arrive in two chunks', async () => {
    const bytes = Buffer.from('né\n', 'utf8');
    expect(await lines([bytes.subarray(0, 2), bytes.subarray(2)], 10)).toEqual(['né']);
  });

  const tooLong: { name: string; chunks: string[]; max: number; line: number }[] = [
    { name: 'one byte over the limit', chunks: ['ok\n123456\n'], max: 5, line: 2 },
    { name: 'one byte over, in pieces', chunks: ['12', '34', '56', '\n'], max: 5, line: 1 },
    { name: 'one byte over, CR LF', chunks: ['123456\r\n'], max: 5, line: 1 },
    { name: 'one byte over, no ending', chunks: ['a\n', '123456'], max: 5, line: 2 },
  ];
  it.each(tooLong)('fails with line_too_long: $name', async ({ chunks, max, line }) => {
    await expect(lines(chunks, max)).rejects.toMatchObject({
      code: 'line_too_long',
      message: `line ${line} is longer than ${max} bytes (SVC_SOURCE_MAX_LINE_BYTES)`,
    });
  });

  it('stops reading an endless line at the limit, without holding it', async () => {
    let produced = 0;
    const endless = Readable.from(
      (function* () {
        for (;;) {
          produced += 64 * 1024;
          yield Buffer.alloc(64 * 1024, 'A');
        }
      })(),
    );
    await expect(
      (async () => {
        for await (const line of splitLines(endless, 1024 * 1024)) void line;
      })(),
    ).rejects.toMatchObject({ code: 'line_too_long' });
    expect(produced).toBeLessThan(2 * 1024 * 1024);
  });

  it('does not echo the line in its error', async () => {
    await expect(lines(['secret-password-line\n'], 5)).rejects.toThrow(/^line 1 is longer than 5 bytes/);
    await expect(lines(['secret-password-line\n'], 5)).rejects.not.toThrow(/secret/);
  });
});

describe('byteLimit', () => {
  const drain = async (chunks: Buffer[], max: number): Promise<number> => {
    let seen = 0;
    await pipeline(Readable.from(chunks), byteLimit(max), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) seen += chunk.length;
    });
    return seen;
  };

  it('passes a stream of exactly the limit', async () => {
    expect(await drain([Buffer.alloc(600), Buffer.alloc(424)], 1024)).toBe(1024);
  });

  it('fails with source_too_large one byte past the limit', async () => {
    await expect(drain([Buffer.alloc(600), Buffer.alloc(425)], 1024)).rejects.toMatchObject({
      code: 'source_too_large',
      message: 'the source holds more than 1024 bytes (limit: SVC_SOURCE_MAX_BYTES)',
    });
  });
});
