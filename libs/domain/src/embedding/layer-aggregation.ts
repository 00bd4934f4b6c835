import { concatVectors, meanVector } from './vector-math';

/** How the hidden states of the selected layers become one vector per token. */
export type LayerAggregation = 'mean' | 'last' | 'concat';

/**
 * Combines one token's vectors from several layers.
 *
 * `layers[k]` is the token's vector in layer `layerIndices[k]`, where layer indices count from the
 * end of the network (0 = the last layer). `mean` averages them element-wise; `concat` joins them
 * in the order listed; `last` keeps the layer nearest the output, the one with the smallest index,
 * wherever it appears in the list.
 */
export function aggregateLayers(input: {
  layers: readonly Float32Array[];
  layerIndices: readonly number[];
  agg: LayerAggregation;
}): Float32Array {
  const { layers, layerIndices, agg } = input;
  if (layers.length === 0) throw new RangeError('aggregateLayers needs at least one layer');
  if (layers.length !== layerIndices.length) {
    throw new RangeError(
      `aggregateLayers got ${layers.length} layer vectors for ${layerIndices.length} layer indices`,
    );
  }
  switch (agg) {
    case 'mean':
      return meanVector(layers);
    case 'concat':
      return concatVectors(layers);
    case 'last': {
      let nearest = 0;
      for (let k = 1; k < layerIndices.length; k++) {
        if ((layerIndices[k] ?? 0) < (layerIndices[nearest] ?? 0)) nearest = k;
      }
      return Float32Array.from(layers[nearest] ?? []);
    }
  }
}
