/**
 * Small vector operations over Float32Array shared by the embedding backends. Sums run in double
 * precision so that long sequences (thousands of residues) do not drift.
 */

function assertSameLength(vectors: readonly Float32Array[], what: string): number {
  const first = vectors[0];
  if (first === undefined) throw new RangeError(`${what} needs at least one vector`);
  for (const vector of vectors) {
    if (vector.length !== first.length) {
      throw new RangeError(`${what}: vectors have different lengths (${first.length} and ${vector.length})`);
    }
  }
  return first.length;
}

/** Euclidean norm. */
export function l2Norm(vector: Float32Array): number {
  let sum = 0;
  for (const value of vector) sum += value * value;
  return Math.sqrt(sum);
}

/**
 * A unit-length copy of `vector`. A zero vector has no direction, so it stays a zero vector
 * rather than turning into NaNs.
 */
export function l2Normalize(vector: Float32Array): Float32Array {
  const norm = l2Norm(vector);
  const out = new Float32Array(vector.length);
  if (norm === 0 || !Number.isFinite(norm)) return out;
  for (let i = 0; i < vector.length; i++) out[i] = (vector[i] ?? 0) / norm;
  return out;
}

/** `vector` multiplied element-wise by `factor`, as a new array. */
export function scaleVector(input: { vector: Float32Array; factor: number }): Float32Array {
  const out = new Float32Array(input.vector.length);
  for (let i = 0; i < out.length; i++) out[i] = (input.vector[i] ?? 0) * input.factor;
  return out;
}

/** The vectors one after another, in the order given. */
export function concatVectors(vectors: readonly Float32Array[]): Float32Array {
  let length = 0;
  for (const vector of vectors) length += vector.length;
  const out = new Float32Array(length);
  let offset = 0;
  for (const vector of vectors) {
    out.set(vector, offset);
    offset += vector.length;
  }
  return out;
}

/** Element-wise mean of one or more vectors of equal length. */
export function meanVector(vectors: readonly Float32Array[]): Float32Array {
  const dim = assertSameLength(vectors, 'meanVector');
  const sums = new Float64Array(dim);
  for (const vector of vectors) for (let i = 0; i < dim; i++) sums[i] = (sums[i] ?? 0) + (vector[i] ?? 0);
  const out = new Float32Array(dim);
  for (let i = 0; i < dim; i++) out[i] = (sums[i] ?? 0) / vectors.length;
  return out;
}

/** Element-wise maximum of one or more vectors of equal length. */
export function maxVector(vectors: readonly Float32Array[]): Float32Array {
  const dim = assertSameLength(vectors, 'maxVector');
  const out = new Float32Array(dim).fill(Number.NEGATIVE_INFINITY);
  for (const vector of vectors) {
    for (let i = 0; i < dim; i++) {
      const value = vector[i] ?? 0;
      if (value > (out[i] ?? 0)) out[i] = value;
    }
  }
  return out;
}
