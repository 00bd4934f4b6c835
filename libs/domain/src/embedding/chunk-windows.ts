/** A half-open residue range [start, end) of a sequence. */
export interface ChunkWindow {
  start: number;
  end: number;
}

/**
 * Splits a sequence of `length` residues into windows of `chunkSize` residues, consecutive windows
 * sharing `overlap` residues. The last window is aligned to the end of the sequence, so it may
 * share more than `overlap` residues with the one before it; every window except a whole short
 * sequence is exactly `chunkSize` long. A sequence no longer than `chunkSize` (including an empty
 * one) is a single window.
 */
export function chunkWindows(input: { length: number; chunkSize: number; overlap: number }): ChunkWindow[] {
  const { length, chunkSize, overlap } = input;
  if (!Number.isInteger(length) || length < 0)
    throw new RangeError(`length must be a non-negative integer, got ${length}`);
  if (!Number.isInteger(chunkSize) || chunkSize < 1)
    throw new RangeError(`chunkSize must be a positive integer, got ${chunkSize}`);
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= chunkSize) {
    throw new RangeError(
      `overlap must be an integer from 0 to chunkSize - 1 (${chunkSize - 1}), got ${overlap}`,
    );
  }
  const stride = chunkSize - overlap;
  const windows: ChunkWindow[] = [];
  for (let start = 0; ; start += stride) {
    if (start + chunkSize >= length) {
      windows.push({ start: Math.max(0, length - chunkSize), end: length });
      return windows;
    }
    windows.push({ start, end: start + chunkSize });
  }
}
