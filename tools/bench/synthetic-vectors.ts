import { normalizeRows } from '@svc/inference';

/** `n` seeded pseudo-random unit rows of `dims` float32 values (an LCG, so every run is the same). */
export function randomUnitRows(n: number, dims: number, seed: number): Float32Array {
  let state = seed >>> 0;
  const data = new Float32Array(n * dims);
  for (let i = 0; i < data.length; i += 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[i] = state / 2 ** 32 - 0.5;
  }
  return normalizeRows(data, dims);
}
