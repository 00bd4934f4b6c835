import type { EmbeddingRecipe } from '../../src/embedding-backend';

/**
 * The embedding pipeline written out naively over plain number arrays, independently of the
 * production code, to check the backend against: layer selection (indices from the end),
 * aggregation, residue normalisation, pooling, final normalisation, scaling.
 */
export function referenceEmbedding(input: {
  /** `[layer][token][dim]`, first layer first (the last entry is the output layer). */
  layers: number[][][];
  residueTokens: number[];
  clsToken: number | null;
  recipe: Pick<
    EmbeddingRecipe,
    'layer_indices' | 'layer_agg' | 'pooling' | 'normalize_residues' | 'normalize' | 'embedding_scale'
  >;
}): number[] {
  const { layers, recipe } = input;
  const at = (layerFromEnd: number, token: number): number[] => {
    const row = layers[layers.length - 1 - layerFromEnd]?.[token];
    if (row === undefined) throw new Error(`no layer ${layerFromEnd} token ${token}`);
    return row;
  };
  const tokenVector = (token: number): number[] => {
    const chosen = recipe.layer_indices.map((layer) => at(layer, token));
    if (recipe.layer_agg === 'concat') return chosen.flat();
    if (recipe.layer_agg === 'last') return at(Math.min(...recipe.layer_indices), token);
    return (chosen[0] ?? []).map(
      (_, k) => chosen.reduce((sum, row) => sum + (row[k] ?? 0), 0) / chosen.length,
    );
  };
  const unit = (v: number[]): number[] => {
    const norm = Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
    return norm === 0 ? v.map(() => 0) : v.map((x) => x / norm);
  };

  let pooled: number[];
  if (recipe.pooling === 'cls') {
    if (input.clsToken === null) throw new Error('no CLS token');
    pooled = tokenVector(input.clsToken);
  } else {
    let rows = input.residueTokens.map(tokenVector);
    if (recipe.normalize_residues) rows = rows.map(unit);
    const width = rows[0]?.length ?? 0;
    const mean = Array.from(
      { length: width },
      (_, k) => rows.reduce((sum, row) => sum + (row[k] ?? 0), 0) / rows.length,
    );
    const max = Array.from({ length: width }, (_, k) =>
      Math.max(...rows.map((row) => row[k] ?? Number.NEGATIVE_INFINITY)),
    );
    pooled = recipe.pooling === 'mean' ? mean : recipe.pooling === 'max' ? max : [...mean, ...max];
  }
  const normalized = recipe.normalize ? unit(pooled) : pooled;
  return normalized.map((x) => x * recipe.embedding_scale);
}
