// Pure layout of a GO subgraph for the SVG view (no DOM), so it can be unit-tested under Node.
// A layered (Sugiyama-style) drawing: break cycles, layer by longest path from the roots, give an
// edge that spans several layers a virtual point in every layer it passes, order the layers by
// barycenter sweeps to cut crossings, then place boxes and virtual points along each layer. An edge
// passes a layer only at its own virtual point, which keeps a channel clear of the boxes there.
import type { Subgraph, SubgraphEdge, SubgraphNode } from './api';

export interface PlacedNode extends SubgraphNode {
  x: number;
  y: number;
}

export interface Point {
  x: number;
  y: number;
}

/** An edge as a polyline from the child's top centre to the parent's bottom centre; it bends only between layers. */
export interface PlacedEdge extends SubgraphEdge {
  points: Point[];
}

export interface SubgraphLayout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

export const NODE_W = 170;
export const NODE_H = 44;
const GAP_X = 18;
const GAP_Y = 46;
// The clearance between an edge channel and its neighbour (a box or another channel).
const CHANNEL_GAP = 12;
// The vertical run at each end of a bend between layers.
const BEND_STUB = 8;
const ORDER_SWEEPS = 4;
const PLACEMENT_ROUNDS = 6;
// Virtual points pull harder than boxes when a layer is packed, so long edges stay straight.
const VIRTUAL_WEIGHT = 4;

/** Layer items are terms (their index in the sorted node list) and virtual points (indices past them). */
interface Layered {
  layerOf: number[];
  above: number[][];
  below: number[][];
  /** Per (child, parent) pair: the items from the upper end to the lower end. */
  chains: Map<string, number[]>;
}

/** Layers a GO subgraph: roots (terms without parents here) on top, every term below all its parents. */
export function layoutSubgraph(graph: Subgraph): SubgraphLayout {
  const terms = uniqueById(graph.nodes).sort(
    (a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.go_id.localeCompare(b.go_id) || a.id - b.id,
  );
  const indexOf = new Map(terms.map((n, i) => [n.id, i]));
  const edges = graph.edges.filter(
    (e) => e.source !== e.target && indexOf.has(e.source) && indexOf.has(e.target),
  );
  const pairKey = (child: number, parent: number) => `${child}>${parent}`;
  const pairs = [...new Map(edges.map((e) => [pairKey(e.source, e.target), e])).values()]
    .map((e): [number, number] => [indexOf.get(e.source)!, indexOf.get(e.target)!])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);

  const layered = insertVirtualPoints(terms.length, pairs);
  const layers = orderLayers(layered);
  const centre = placeAlongLayers(layers, layered, terms.length);
  const left = Math.min(...layers.flat().map((v) => centre[v]! - itemWidth(v, terms.length) / 2));
  const xOf = (v: number) => Math.round(centre[v]! - left + GAP_X);
  const topOf = (layer: number) => GAP_Y / 2 + layer * (NODE_H + GAP_Y);

  const nodes = layers.flatMap((row, layer) =>
    row
      .filter((v) => v < terms.length)
      .map((v) => ({ ...terms[v]!, x: xOf(v) - NODE_W / 2, y: topOf(layer) })),
  );
  const right = Math.max(0, ...layers.flat().map((v) => xOf(v) + itemWidth(v, terms.length) / 2));
  const routeOf = (e: SubgraphEdge): Point[] => {
    const child = indexOf.get(e.source)!;
    const parent = indexOf.get(e.target)!;
    const chain = layered.chains.get(pairKey(child, parent)) ?? [];
    const points: Point[] = [];
    chain.slice(1).forEach((v, k) => {
      const from = { x: xOf(chain[k]!), y: topOf(layered.layerOf[chain[k]!]!) + NODE_H };
      const to = { x: xOf(v), y: topOf(layered.layerOf[v]!) };
      points.push(from);
      // A bend leaves and enters a layer vertically, so a flat diagonal cannot skim a box's corner.
      if (from.x !== to.x)
        points.push({ x: from.x, y: from.y + BEND_STUB }, { x: to.x, y: to.y - BEND_STUB });
      points.push(to);
    });
    // Normally the child is the lower end; an edge that closes a cycle runs down to its parent.
    return chain[chain.length - 1] === child ? points.reverse() : points;
  };
  return {
    nodes,
    edges: edges.map((e) => ({ ...e, points: routeOf(e) })),
    width: Math.max(right + GAP_X, NODE_W + 2 * GAP_X),
    height: layers.length * (NODE_H + GAP_Y),
  };
}

/** The first node given for each id. */
function uniqueById(nodes: SubgraphNode[]): SubgraphNode[] {
  const byId = new Map<number, SubgraphNode>();
  for (const n of nodes) if (!byId.has(n.id)) byId.set(n.id, n);
  return [...byId.values()];
}

function itemWidth(v: number, termCount: number): number {
  return v < termCount ? NODE_W : 0;
}

/**
 * Breaks cycles (an edge back into the current depth-first path is turned round), layers every term one
 * below its deepest parent, and splits each edge spanning several layers into a chain of virtual points.
 */
function insertVirtualPoints(termCount: number, pairs: [number, number][]): Layered {
  const parentsOf: number[][] = Array.from({ length: termCount }, () => []);
  for (const [child, parent] of pairs) parentsOf[child]!.push(parent);
  const reversed = findBackEdges(parentsOf);
  // Oriented edges [upper, lower]: a parent above its child unless the edge closes a cycle.
  const oriented = pairs.map(([child, parent]): [number, number] =>
    reversed.has(`${child}>${parent}`) ? [child, parent] : [parent, child],
  );
  const uppers: number[][] = Array.from({ length: termCount }, () => []);
  for (const [upper, lower] of oriented) uppers[lower]!.push(upper);
  const layerOf = longestPathLayers(uppers);

  const above: number[][] = Array.from({ length: termCount }, () => []);
  const below: number[][] = Array.from({ length: termCount }, () => []);
  const link = (upper: number, lower: number) => {
    below[upper]!.push(lower);
    above[lower]!.push(upper);
  };
  const chains = new Map<string, number[]>();
  oriented.forEach(([upper, lower], i) => {
    const chain = [upper];
    for (let layer = layerOf[upper]! + 1; layer < layerOf[lower]!; layer++) {
      chain.push(layerOf.length);
      layerOf.push(layer);
      above.push([]);
      below.push([]);
    }
    chain.push(lower);
    chain.slice(1).forEach((v, k) => link(chain[k]!, v));
    const [child, parent] = pairs[i]!;
    chains.set(`${child}>${parent}`, chain);
  });
  return { layerOf, above, below, chains };
}

/** Edges (child>parent keys) that close a cycle, found by an iterative depth-first search in index order. */
function findBackEdges(parentsOf: number[][]): Set<string> {
  const state = new Uint8Array(parentsOf.length); // 0 unseen, 1 on the path, 2 done
  const back = new Set<string>();
  for (let root = 0; root < parentsOf.length; root++) {
    if (state[root] !== 0) continue;
    const stack: [number, number][] = [[root, 0]];
    state[root] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const [v, next] = top;
      const parent = parentsOf[v]![next];
      if (parent === undefined) {
        state[v] = 2;
        stack.pop();
        continue;
      }
      top[1] = next + 1;
      if (state[parent] === 1) back.add(`${v}>${parent}`);
      else if (state[parent] === 0) {
        state[parent] = 1;
        stack.push([parent, 0]);
      }
    }
  }
  return back;
}

/** Layer 0 for terms with nothing above; otherwise one below the deepest item above (the graph is acyclic here). */
function longestPathLayers(uppers: number[][]): number[] {
  const layerOf = new Array<number>(uppers.length).fill(0);
  const waiting = uppers.map((u) => u.length);
  const lowers: number[][] = uppers.map(() => []);
  uppers.forEach((us, v) => us.forEach((u) => lowers[u]!.push(v)));
  const ready = waiting.flatMap((count, v) => (count === 0 ? [v] : []));
  for (let i = 0; i < ready.length; i++) {
    const u = ready[i]!;
    for (const v of lowers[u]!) {
      layerOf[v] = Math.max(layerOf[v]!, layerOf[u]! + 1);
      waiting[v] = waiting[v]! - 1;
      if (waiting[v] === 0) ready.push(v);
    }
  }
  return layerOf;
}

/** Barycenter sweeps, down then up, a fixed number of times; the order with the fewest crossings wins. */
function orderLayers({ layerOf, above, below }: Layered): number[][] {
  const layers: number[][] = [];
  layerOf.forEach((layer, v) => (layers[layer] ??= []).push(v));
  const position = new Array<number>(layerOf.length).fill(0);
  const index = (row: number[]) => row.forEach((v, i) => (position[v] = i));
  for (const row of layers) index(row);
  const reorder = (row: number[], neighbours: number[][]) => {
    const key = row.map((v, i) => {
      const ns = neighbours[v]!;
      return ns.length === 0 ? i : ns.reduce((sum, n) => sum + position[n]!, 0) / ns.length;
    });
    const sorted = row.map((v, i) => ({ v, key: key[i]!, i })).sort((a, b) => a.key - b.key || a.i - b.i);
    sorted.forEach(({ v }, i) => (row[i] = v));
    index(row);
  };
  const crossings = () =>
    layers.slice(1).reduce((sum, row, i) => sum + countCrossings(layers[i]!, row, below, position), 0);
  let best = layers.map((row) => [...row]);
  let fewest = crossings();
  for (let sweep = 0; sweep < ORDER_SWEEPS && fewest > 0; sweep++) {
    for (let l = 1; l < layers.length; l++) reorder(layers[l]!, above);
    for (let l = layers.length - 2; l >= 0; l--) reorder(layers[l]!, below);
    const now = crossings();
    if (now < fewest) [best, fewest] = [layers.map((row) => [...row]), now];
  }
  return best;
}

/** Crossings between two adjacent layers: inversions of the lower ends, counted with a Fenwick tree. */
function countCrossings(upper: number[], lower: number[], below: number[][], position: number[]): number {
  const ends = upper.flatMap((u) => below[u]!.map((v) => position[v]!).sort((a, b) => a - b));
  const tree = new Array<number>(lower.length + 1).fill(0);
  let crossings = 0;
  ends.forEach((end, seen) => {
    let atOrBefore = 0;
    for (let i = end + 1; i > 0; i -= i & -i) atOrBefore += tree[i]!;
    crossings += seen - atOrBefore;
    for (let i = end + 1; i <= lower.length; i += i & -i) tree[i] = tree[i]! + 1;
  });
  return crossings;
}

/**
 * Horizontal centres: start packed, then pull every item towards the mean of its neighbours in the
 * layer above (down passes) and below (up passes), keeping the order and the minimum spacing.
 */
function placeAlongLayers(
  layers: number[][],
  { above, below, layerOf }: Layered,
  termCount: number,
): number[] {
  const centre = new Array<number>(layerOf.length).fill(0);
  const spacing = (a: number, b: number) =>
    (itemWidth(a, termCount) + itemWidth(b, termCount)) / 2 +
    (a < termCount && b < termCount ? GAP_X : CHANNEL_GAP);
  // Where each item would sit with the layer packed from 0: the minimum spacing, accumulated.
  const offsets = layers.map((row) => {
    let total = 0;
    return row.map((v, i) => (total += i === 0 ? 0 : spacing(row[i - 1]!, v)));
  });
  layers.forEach((row, l) => row.forEach((v, i) => (centre[v] = offsets[l]![i]!)));
  const pull = (l: number, neighbours: number[][]) => {
    const row = layers[l]!;
    const wanted = row.map((v) => {
      const ns = neighbours[v]!;
      return ns.length === 0 ? centre[v]! : ns.reduce((sum, n) => sum + centre[n]!, 0) / ns.length;
    });
    const weights = row.map((v) => (v < termCount ? 1 : VIRTUAL_WEIGHT));
    const placed = closestSpaced(wanted, offsets[l]!, weights);
    row.forEach((v, i) => (centre[v] = placed[i]!));
  };
  for (let round = 0; round < PLACEMENT_ROUNDS; round++) {
    for (let l = 1; l < layers.length; l++) pull(l, above);
    for (let l = layers.length - 2; l >= 0; l--) pull(l, below);
  }
  return centre;
}

/**
 * The positions closest (weighted least squares) to `wanted` with x[i+1] - x[i] >= offsets[i+1] - offsets[i]:
 * with y = x - offset the constraint is y non-decreasing, an isotonic regression solved by pooling
 * adjacent violators in one pass.
 */
function closestSpaced(wanted: number[], offsets: number[], weights: number[]): number[] {
  const blocks: { weight: number; sum: number; size: number }[] = [];
  wanted.forEach((w, i) => {
    let block = { weight: weights[i]!, sum: weights[i]! * (w - offsets[i]!), size: 1 };
    for (
      let last = blocks.at(-1);
      last && last.sum / last.weight > block.sum / block.weight;
      last = blocks.at(-1)
    ) {
      blocks.pop();
      block = { weight: last.weight + block.weight, sum: last.sum + block.sum, size: last.size + block.size };
    }
    blocks.push(block);
  });
  return blocks
    .flatMap((b) => Array.from({ length: b.size }, () => b.sum / b.weight))
    .map((y, i) => y + offsets[i]!);
}

/**
 * SVG path data through an edge's points: straight where it runs vertically, an S-curve with vertical
 * ends where it bends. A bend's curve stays inside the bounding box of its two points, which lies
 * between two layers, so the smooth drawing keeps the polyline's clearance from boxes.
 */
export function edgePathData(points: Point[]): string {
  return points
    .map((p, i) => {
      const from = points[i - 1];
      if (!from) return `M ${p.x} ${p.y}`;
      if (from.x === p.x) return `L ${p.x} ${p.y}`;
      const middle = (from.y + p.y) / 2;
      return `C ${from.x} ${middle} ${p.x} ${middle} ${p.x} ${p.y}`;
    })
    .join(' ');
}
