import type { Subgraph, SubgraphNode } from '../src/api';
import { layoutSubgraph, NODE_H, NODE_W } from '../src/graph-layout';

const node = (id: number, goId: string, isQuery = false): SubgraphNode => ({
  id,
  go_id: goId,
  name: goId,
  aspect: 'F',
  is_query: isQuery,
});

describe('layoutSubgraph', () => {
  // molecular_function <- catalytic activity <- kinase activity <- protein kinase activity, and
  // protein kinase activity also directly under catalytic activity (a shortcut edge).
  const graph: Subgraph = {
    nodes: [node(1, 'GO:0003674'), node(2, 'GO:0003824'), node(3, 'GO:0016301'), node(4, 'GO:0004672', true)],
    edges: [
      { source: 2, target: 1, relation_type: 'is_a' },
      { source: 3, target: 2, relation_type: 'is_a' },
      { source: 4, target: 3, relation_type: 'is_a' },
      { source: 4, target: 2, relation_type: 'part_of' },
    ],
  };

  it('puts every term below all of its parents, on the layer after its deepest parent', () => {
    const { nodes, height } = layoutSubgraph(graph);
    const y = new Map(nodes.map((n) => [n.id, n.y]));
    for (const e of graph.edges) expect(y.get(e.source)!).toBeGreaterThan(y.get(e.target)!);
    const layers = [...new Set(nodes.map((n) => n.y))].sort((a, b) => a - b);
    expect(layers).toHaveLength(4);
    expect(nodes.find((n) => n.id === 4)!.y).toBe(layers[3]);
    expect(height).toBeGreaterThanOrEqual(layers[3]! + NODE_H);
  });

  it('keeps terms of one layer apart and inside the drawing', () => {
    const siblings: Subgraph = {
      nodes: [node(1, 'GO:1'), node(2, 'GO:2'), node(3, 'GO:3'), node(4, 'GO:4')],
      edges: [2, 3, 4].map((id) => ({ source: id, target: 1, relation_type: 'is_a' })),
    };
    const { nodes, width } = layoutSubgraph(siblings);
    const row = nodes.filter((n) => n.id !== 1).sort((a, b) => a.x - b.x);
    for (let i = 1; i < row.length; i++) expect(row[i]!.x).toBeGreaterThanOrEqual(row[i - 1]!.x + NODE_W);
    for (const n of nodes) {
      expect(n.x).toBeGreaterThanOrEqual(0);
      expect(n.x + NODE_W).toBeLessThanOrEqual(width);
    }
  });

  it('treats a term whose parents are not in the subgraph as a root, and survives a cycle', () => {
    const partial: Subgraph = {
      nodes: [node(5, 'GO:5'), node(6, 'GO:6'), node(7, 'GO:7')],
      edges: [
        { source: 5, target: 99, relation_type: 'is_a' },
        { source: 6, target: 7, relation_type: 'is_a' },
        { source: 7, target: 6, relation_type: 'regulates' },
      ],
    };
    const { nodes } = layoutSubgraph(partial);
    expect(nodes).toHaveLength(3);
    const top = Math.min(...nodes.map((n) => n.y));
    expect(nodes.find((n) => n.id === 5)!.y).toBe(top);
  });
});
