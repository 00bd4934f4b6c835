// Pure layout of a GO subgraph for the SVG view (no DOM), so it can be unit-tested under Node.
import type { Subgraph, SubgraphNode } from './api';

export interface PlacedNode extends SubgraphNode {
  x: number;
  y: number;
}

export const NODE_W = 170;
export const NODE_H = 44;
const GAP_X = 18;
const GAP_Y = 46;

/** Layers a GO subgraph: roots (terms without parents here) on top, every term below all its parents. */
export function layoutSubgraph(graph: Subgraph): { nodes: PlacedNode[]; width: number; height: number } {
  const parents = new Map<number, number[]>();
  for (const e of graph.edges) parents.set(e.source, [...(parents.get(e.source) ?? []), e.target]);
  const present = new Set(graph.nodes.map((n) => n.id));
  const layer = new Map<number, number>();
  const depthOf = (id: number, seen: Set<number>): number => {
    const known = layer.get(id);
    if (known !== undefined) return known;
    if (seen.has(id)) return 0;
    seen.add(id);
    const ups = (parents.get(id) ?? []).filter((p) => present.has(p));
    const depth = ups.length === 0 ? 0 : 1 + Math.max(...ups.map((p) => depthOf(p, seen)));
    layer.set(id, depth);
    return depth;
  };
  for (const n of graph.nodes) depthOf(n.id, new Set());
  const layers: SubgraphNode[][] = [];
  for (const n of graph.nodes) (layers[layer.get(n.id) ?? 0] ??= []).push(n);
  const widest = Math.max(1, ...layers.map((l) => l?.length ?? 0));
  const width = widest * (NODE_W + GAP_X) + GAP_X;
  const nodes: PlacedNode[] = [];
  layers.forEach((row, depth) => {
    const sorted = [...(row ?? [])].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''));
    const rowWidth = sorted.length * (NODE_W + GAP_X) - GAP_X;
    const start = (width - rowWidth) / 2;
    sorted.forEach((n, i) =>
      nodes.push({ ...n, x: start + i * (NODE_W + GAP_X), y: GAP_Y / 2 + depth * (NODE_H + GAP_Y) }),
    );
  });
  return { nodes, width, height: layers.length * (NODE_H + GAP_Y) };
}
