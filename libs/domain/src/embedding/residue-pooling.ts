import { concatVectors, l2Normalize, maxVector, meanVector, scaleVector } from './vector-math';

/** How per-token vectors become one vector per sequence (or chunk). */
export type EmbeddingPooling = 'mean' | 'max' | 'cls' | 'mean_max';

/**
 * Pools residue vectors into one vector: `mean` and `max` are element-wise over the residues,
 * `mean_max` is the mean followed by the max (twice the width), and `cls` returns a copy of the
 * start-of-sequence token's vector, which the caller passes as `cls`.
 */
export function poolResidues(input: {
  residues: readonly Float32Array[];
  pooling: EmbeddingPooling;
  cls?: Float32Array;
}): Float32Array {
  const { residues, pooling, cls } = input;
  if (pooling === 'cls') {
    if (cls === undefined) throw new RangeError("pooling 'cls' needs the CLS token's vector");
    return Float32Array.from(cls);
  }
  if (residues.length === 0) throw new RangeError(`pooling '${pooling}' needs at least one residue`);
  switch (pooling) {
    case 'mean':
      return meanVector(residues);
    case 'max':
      return maxVector(residues);
    case 'mean_max':
      return concatVectors([meanVector(residues), maxVector(residues)]);
  }
}

/**
 * The full per-sequence reduction, in this order: optional L2 normalisation of each residue
 * vector, pooling, optional L2 normalisation of the pooled vector, multiplication by `scale`.
 * Residue normalisation does not touch the CLS vector, which is not a residue.
 */
export function poolSequenceEmbedding(input: {
  residues: readonly Float32Array[];
  cls?: Float32Array;
  pooling: EmbeddingPooling;
  normalizeResidues: boolean;
  normalize: boolean;
  scale: number;
}): Float32Array {
  const residues = input.normalizeResidues ? input.residues.map(l2Normalize) : input.residues;
  const pooled = poolResidues({ residues, pooling: input.pooling, cls: input.cls });
  const normalized = input.normalize ? l2Normalize(pooled) : pooled;
  return input.scale === 1 ? normalized : scaleVector({ vector: normalized, factor: input.scale });
}
