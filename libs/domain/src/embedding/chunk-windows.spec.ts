import { chunkWindows } from './chunk-windows';

const w = (start: number, end: number) => ({ start, end });

describe('chunkWindows', () => {
  it.each([
    {
      name: 'an empty sequence is one empty window',
      length: 0,
      chunkSize: 4,
      overlap: 0,
      expected: [w(0, 0)],
    },
    { name: 'a single residue', length: 1, chunkSize: 4, overlap: 0, expected: [w(0, 1)] },
    { name: 'a single residue with chunk size 1', length: 1, chunkSize: 1, overlap: 0, expected: [w(0, 1)] },
    {
      name: 'chunk size larger than the sequence',
      length: 5,
      chunkSize: 100,
      overlap: 10,
      expected: [w(0, 5)],
    },
    { name: 'chunk size equal to the sequence', length: 8, chunkSize: 8, overlap: 2, expected: [w(0, 8)] },
    {
      name: 'exact tiling without overlap',
      length: 8,
      chunkSize: 4,
      overlap: 0,
      expected: [w(0, 4), w(4, 8)],
    },
    {
      name: 'last window aligned to the end',
      length: 10,
      chunkSize: 4,
      overlap: 0,
      expected: [w(0, 4), w(4, 8), w(6, 10)],
    },
    {
      name: 'overlap, exact fit',
      length: 10,
      chunkSize: 4,
      overlap: 1,
      expected: [w(0, 4), w(3, 7), w(6, 10)],
    },
    {
      name: 'overlap, end-aligned tail',
      length: 11,
      chunkSize: 4,
      overlap: 1,
      expected: [w(0, 4), w(3, 7), w(6, 10), w(7, 11)],
    },
    { name: 'one past the chunk size', length: 5, chunkSize: 4, overlap: 0, expected: [w(0, 4), w(1, 5)] },
    {
      name: 'overlap = chunkSize - 1 slides one residue at a time',
      length: 6,
      chunkSize: 3,
      overlap: 2,
      expected: [w(0, 3), w(1, 4), w(2, 5), w(3, 6)],
    },
    { name: 'chunk size 1', length: 3, chunkSize: 1, overlap: 0, expected: [w(0, 1), w(1, 2), w(2, 3)] },
  ])('$name', ({ length, chunkSize, overlap, expected }) => {
    expect(chunkWindows({ length, chunkSize, overlap })).toEqual(expected);
  });

  it.each([
    { length: 1000, chunkSize: 100, overlap: 0 },
    { length: 1001, chunkSize: 100, overlap: 25 },
    { length: 257, chunkSize: 64, overlap: 63 },
  ])(
    'covers every residue in order with full-size windows ($length/$chunkSize/$overlap)',
    ({ length, chunkSize, overlap }) => {
      const windows = chunkWindows({ length, chunkSize, overlap });
      expect(windows[0]?.start).toBe(0);
      expect(windows.at(-1)?.end).toBe(length);
      for (const [i, window] of windows.entries()) {
        expect(window.end - window.start).toBe(chunkSize);
        const previous = windows[i - 1];
        if (previous) {
          expect(window.start).toBeGreaterThan(previous.start);
          expect(previous.end - window.start).toBeGreaterThanOrEqual(overlap);
        }
      }
    },
  );

  it.each([
    { name: 'a negative length', length: -1, chunkSize: 4, overlap: 0 },
    { name: 'a fractional length', length: 2.5, chunkSize: 4, overlap: 0 },
    { name: 'chunk size 0', length: 4, chunkSize: 0, overlap: 0 },
    { name: 'overlap equal to chunk size', length: 10, chunkSize: 4, overlap: 4 },
    { name: 'a negative overlap', length: 10, chunkSize: 4, overlap: -1 },
  ])('rejects $name', ({ length, chunkSize, overlap }) => {
    expect(() => chunkWindows({ length, chunkSize, overlap })).toThrow(RangeError);
  });
});
