/** A principal-component projection fitted on a sample of vectors. */
export interface PcaModel {
  readonly dimensions: number;
  readonly mean: Float64Array;
  /** Unit-length components, strongest first. */
  readonly components: Float64Array[];
  /** Variance along each component. */
  readonly variances: number[];
}

const ITERATIONS = 200;
const TOLERANCE = 1e-12;

/**
 * Principal components by power iteration with deflation. With at least as many vectors as
 * dimensions the d x d sample covariance is decomposed; with fewer (high-dimensional embeddings,
 * small samples) the n x n Gram matrix is, and its eigenvectors are mapped back through the data:
 * the same components at O(n^2 d) instead of O(n d^2). The start vector is fixed, so the same
 * sample always gives the same components (signs included: each component is flipped so that its
 * largest-magnitude entry is positive).
 */
export function fitPca(
  vectors: readonly ArrayLike<number>[],
  wanted: number,
  method: 'auto' | 'covariance' | 'gram' = 'auto',
): PcaModel {
  if (vectors.length === 0) throw new RangeError('PCA needs at least one vector');
  const d = vectors[0]!.length;
  const n = vectors.length;
  const mean = new Float64Array(d);
  for (const v of vectors) {
    if (v.length !== d) throw new RangeError(`vectors differ in length (${v.length} vs ${d})`);
    for (let j = 0; j < d; j++) mean[j]! += v[j]! / n;
  }
  const centred = vectors.map((v) => Float64Array.from(v, (x, j) => x - mean[j]!));
  const scale = n > 1 ? 1 / (n - 1) : 1;
  const count = Math.min(wanted, d);
  const useGram = method === 'gram' || (method === 'auto' && n < d);
  if (!useGram) {
    const cov = new Float64Array(d * d);
    for (const c of centred)
      for (let a = 0; a < d; a++) {
        const ca = c[a]!;
        if (ca === 0) continue;
        for (let b = a; b < d; b++) cov[a * d + b]! += ca * c[b]!;
      }
    symmetrise(cov, d, scale);
    const { vectors: components, values } = topEigenvectors(cov, d, count);
    return { dimensions: d, mean, components: components.map(fixSign), variances: values };
  }
  const gram = new Float64Array(n * n);
  for (let a = 0; a < n; a++) for (let b = a; b < n; b++) gram[a * n + b] = dot(centred[a]!, centred[b]!);
  symmetrise(gram, n, scale);
  const { vectors: eigen, values } = topEigenvectors(gram, n, Math.min(count, n));
  const components = eigen.map((u) => {
    const component = new Float64Array(d);
    u.forEach((weight, i) => {
      const row = centred[i]!;
      for (let j = 0; j < d; j++) component[j]! += weight * row[j]!;
    });
    normalise(component);
    return fixSign(component);
  });
  return { dimensions: d, mean, components, variances: values };
}

/** Mirrors the upper triangle into the lower one and scales both. */
function symmetrise(matrix: Float64Array, size: number, scale: number): void {
  for (let a = 0; a < size; a++)
    for (let b = a; b < size; b++) {
      const value = matrix[a * size + b]! * scale;
      matrix[a * size + b] = value;
      matrix[b * size + a] = value;
    }
}

/** The `count` leading eigenpairs of a symmetric positive semi-definite matrix (destroys it). */
function topEigenvectors(
  matrix: Float64Array,
  size: number,
  count: number,
): { vectors: Float64Array[]; values: number[] } {
  const vectors: Float64Array[] = [];
  const values: number[] = [];
  for (let c = 0; c < count; c++) {
    let v: Float64Array = new Float64Array(size).map((_, j) => 1 / Math.sqrt(size) + j * 1e-3);
    normalise(v);
    let lambda = 0;
    for (let it = 0; it < ITERATIONS; it++) {
      const next = multiply(matrix, v, size);
      const norm = length(next);
      if (norm < TOLERANCE) {
        lambda = 0;
        break;
      }
      for (let j = 0; j < size; j++) next[j]! /= norm;
      let change = 0;
      for (let j = 0; j < size; j++) change = Math.max(change, Math.abs(next[j]! - v[j]!));
      v = next;
      lambda = norm;
      if (change < 1e-10) break;
    }
    if (lambda <= TOLERANCE) break;
    vectors.push(v);
    values.push(lambda);
    // Deflate: remove this eigenpair before looking for the next one.
    for (let a = 0; a < size; a++)
      for (let b = 0; b < size; b++) matrix[a * size + b]! -= lambda * v[a]! * v[b]!;
  }
  return { vectors, values };
}

function fixSign(v: Float64Array): Float64Array {
  let peak = 0;
  for (let j = 0; j < v.length; j++) if (Math.abs(v[j]!) > Math.abs(v[peak]!)) peak = j;
  if (v[peak]! < 0) for (let j = 0; j < v.length; j++) v[j] = -v[j]!;
  return v;
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let j = 0; j < a.length; j++) sum += a[j]! * b[j]!;
  return sum;
}

/** The coordinates of `vector` on the model's components. */
export function projectPca(model: PcaModel, vector: ArrayLike<number>): number[] {
  if (vector.length !== model.dimensions)
    throw new RangeError(`vector has ${vector.length} dimensions, the model ${model.dimensions}`);
  return model.components.map((component) => {
    let sum = 0;
    for (let j = 0; j < model.dimensions; j++) sum += (vector[j]! - model.mean[j]!) * component[j]!;
    return sum;
  });
}

function multiply(matrix: Float64Array, v: Float64Array, d: number): Float64Array {
  const out = new Float64Array(d);
  for (let a = 0; a < d; a++) {
    let sum = 0;
    const row = a * d;
    for (let b = 0; b < d; b++) sum += matrix[row + b]! * v[b]!;
    out[a] = sum;
  }
  return out;
}

function length(v: Float64Array): number {
  let sum = 0;
  for (const x of v) sum += x * x;
  return Math.sqrt(sum);
}

function normalise(v: Float64Array): void {
  const norm = length(v);
  for (let j = 0; j < v.length; j++) v[j]! /= norm;
}
