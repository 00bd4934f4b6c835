import type { Subgraph, SubgraphEdge, SubgraphNode } from '../src/api';
import {
  edgePathData,
  layoutSubgraph,
  NODE_H,
  NODE_W,
  type Point,
  type SubgraphLayout,
} from '../src/graph-layout';

const node = (id: number, goId: string, isQuery = false): SubgraphNode => ({
  id,
  go_id: goId,
  name: goId,
  aspect: 'F',
  is_query: isQuery,
});

const isA = (source: number, target: number): SubgraphEdge => ({ source, target, relation_type: 'is_a' });

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const boxOf = (n: { x: number; y: number }, grow = 0): Rect => ({
  left: n.x - grow,
  top: n.y - grow,
  right: n.x + NODE_W + grow,
  bottom: n.y + NODE_H + grow,
});

/** Whether the segment a-b meets the closed rectangle (Liang-Barsky clipping). */
function segmentHitsRect(a: Point, b: Point, r: Rect): boolean {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  let t0 = 0;
  let t1 = 1;
  const sides: [number, number][] = [
    [-dx, a.x - r.left],
    [dx, r.right - a.x],
    [-dy, a.y - r.top],
    [dy, r.bottom - a.y],
  ];
  for (const [p, q] of sides) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

const segmentsOf = (points: Point[]): [Point, Point][] => points.slice(1).map((p, i) => [points[i]!, p]);

/** Proper crossings between edges that share no term (segments meeting at a shared port do not count). */
function countCrossings(layout: SubgraphLayout): number {
  const cross = (a: Point, b: Point, c: Point, d: Point): boolean => {
    const side = (p: Point, q: Point, r: Point) =>
      Math.sign((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x));
    return side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0;
  };
  let crossings = 0;
  layout.edges.forEach((e, i) =>
    layout.edges.slice(i + 1).forEach((f) => {
      if ([f.source, f.target].some((id) => id === e.source || id === e.target)) return;
      const hit = segmentsOf(e.points).some(([a, b]) =>
        segmentsOf(f.points).some(([c, d]) => cross(a, b, c, d)),
      );
      if (hit) crossings += 1;
    }),
  );
  return crossings;
}

/** A reproducible pseudo-random DAG: term i gets one to three parents among the terms before it. */
function generatedDag(size: number, seed: number): Subgraph {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const nodes = Array.from({ length: size }, (_, i) => node(i + 1, `GO:${String(i + 1).padStart(7, '0')}`));
  const edges: SubgraphEdge[] = [];
  for (let i = 2; i <= size; i++) {
    const parents = new Set(
      Array.from({ length: 1 + Math.floor(next() * 3) }, () => 1 + Math.floor(next() * (i - 1))),
    );
    for (const p of parents) edges.push(isA(i, p));
  }
  return { nodes, edges };
}

// molecular_function <- catalytic activity <- kinase activity <- protein kinase activity, and
// protein kinase activity also directly under catalytic activity (a shortcut edge).
const kinase: Subgraph = {
  nodes: [node(1, 'GO:0003674'), node(2, 'GO:0003824'), node(3, 'GO:0016301'), node(4, 'GO:0004672', true)],
  edges: [isA(2, 1), isA(3, 2), isA(4, 3), { source: 4, target: 2, relation_type: 'part_of' }],
};

const cases: { name: string; graph: Subgraph; acyclic: boolean }[] = [
  {
    name: 'a shortcut edge past a term straight below its parent (the reported defect)',
    graph: kinase,
    acyclic: true,
  },
  {
    name: 'an edge spanning three layers beside a wide middle',
    graph: {
      nodes: [1, 2, 3, 4, 5, 6, 7].map((id) => node(id, `GO:${id}`)),
      edges: [
        isA(2, 1),
        isA(3, 1),
        isA(4, 2),
        isA(5, 3),
        isA(6, 4),
        isA(6, 5),
        isA(7, 6),
        isA(7, 1),
        isA(6, 1),
      ],
    },
    acyclic: true,
  },
  {
    name: 'two relations between the same pair and long edges from several children',
    graph: {
      nodes: [1, 2, 3, 4, 5, 6].map((id) => node(id, `GO:${id}`)),
      edges: [
        isA(2, 1),
        isA(3, 2),
        isA(4, 3),
        { source: 4, target: 1, relation_type: 'part_of' },
        isA(4, 1),
        isA(5, 3),
        isA(5, 1),
        isA(6, 2),
        { source: 6, target: 99, relation_type: 'regulates' },
      ],
    },
    acyclic: true,
  },
  {
    name: 'a cycle that spans layers, a self-loop and a missing parent',
    graph: {
      nodes: [1, 2, 3, 4, 5].map((id) => node(id, `GO:${id}`)),
      edges: [isA(2, 1), isA(3, 2), isA(4, 3), isA(2, 4), isA(5, 5), isA(5, 42), isA(5, 1)],
    },
    acyclic: false,
  },
  { name: 'a generated DAG of 60 terms', graph: generatedDag(60, 7), acyclic: true },
  { name: 'a generated DAG of 300 terms', graph: generatedDag(300, 11), acyclic: true },
];

describe('layoutSubgraph', () => {
  it('puts every term below all of its parents, on the layer after its deepest parent', () => {
    const { nodes, height } = layoutSubgraph(kinase);
    const y = new Map(nodes.map((n) => [n.id, n.y]));
    for (const e of kinase.edges) expect(y.get(e.source)!).toBeGreaterThan(y.get(e.target)!);
    const layers = [...new Set(nodes.map((n) => n.y))].sort((a, b) => a - b);
    expect(layers).toHaveLength(4);
    expect(nodes.find((n) => n.id === 4)!.y).toBe(layers[3]);
    expect(height).toBeGreaterThanOrEqual(layers[3]! + NODE_H);
  });

  it('keeps terms of one layer apart and inside the drawing', () => {
    const siblings: Subgraph = {
      nodes: [node(1, 'GO:1'), node(2, 'GO:2'), node(3, 'GO:3'), node(4, 'GO:4')],
      edges: [2, 3, 4].map((id) => isA(id, 1)),
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
    const { nodes, edges } = layoutSubgraph(partial);
    expect(nodes).toHaveLength(3);
    const top = Math.min(...nodes.map((n) => n.y));
    expect(nodes.find((n) => n.id === 5)!.y).toBe(top);
    expect(edges.map((e) => [e.source, e.target])).toEqual([
      [6, 7],
      [7, 6],
    ]);
  });

  it('returns an empty drawing for an empty subgraph', () => {
    const layout = layoutSubgraph({ nodes: [], edges: [] });
    expect(layout).toMatchObject({ nodes: [], edges: [], height: 0 });
    expect(layout.width).toBeGreaterThan(0);
  });

  describe.each(cases)('$name', ({ graph, acyclic }) => {
    const layout = layoutSubgraph(graph);
    const at = new Map(layout.nodes.map((n) => [n.id, n]));

    it('places every term once, without overlaps, inside the drawing', () => {
      expect(layout.nodes.map((n) => n.id).sort((a, b) => a - b)).toEqual(
        graph.nodes.map((n) => n.id).sort((a, b) => a - b),
      );
      const overlapping: [number, number][] = [];
      layout.nodes.forEach((n, i) => {
        expect(n.x).toBeGreaterThanOrEqual(0);
        expect(n.y).toBeGreaterThanOrEqual(0);
        expect(n.x + NODE_W).toBeLessThanOrEqual(layout.width);
        expect(n.y + NODE_H).toBeLessThanOrEqual(layout.height);
        for (const m of layout.nodes.slice(i + 1)) {
          const [a, b] = [boxOf(n), boxOf(m)];
          const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
          if (!apart) overlapping.push([n.id, m.id]);
        }
      });
      expect(overlapping).toEqual([]);
    });

    it('keeps every edge between present terms, the child below all of its parents', () => {
      const kept = graph.edges.filter((e) => e.source !== e.target && at.has(e.source) && at.has(e.target));
      expect(
        layout.edges.map(({ source, target, relation_type }) => ({ source, target, relation_type })),
      ).toEqual(kept);
      if (acyclic)
        for (const e of layout.edges) expect(at.get(e.source)!.y).toBeGreaterThan(at.get(e.target)!.y);
    });

    it('runs every edge from the top centre of the child to the bottom centre of the parent', () => {
      for (const e of layout.edges) {
        const [child, parent] = [at.get(e.source)!, at.get(e.target)!];
        const [first, last] = [e.points[0]!, e.points[e.points.length - 1]!];
        if (child.y > parent.y) {
          expect(first).toEqual({ x: child.x + NODE_W / 2, y: child.y });
          expect(last).toEqual({ x: parent.x + NODE_W / 2, y: parent.y + NODE_H });
        } else {
          // An edge that closes a cycle points down, from the bottom of the child to the top of the parent.
          expect(first).toEqual({ x: child.x + NODE_W / 2, y: child.y + NODE_H });
          expect(last).toEqual({ x: parent.x + NODE_W / 2, y: parent.y });
        }
      }
    });

    it('routes no edge through a term box, its own ends included', () => {
      const margin = 2;
      for (const e of layout.edges)
        for (const [a, b] of segmentsOf(e.points))
          for (const n of layout.nodes) {
            const own = n.id === e.source || n.id === e.target;
            // An edge may touch the border of its own terms (its ports) but never enter them.
            const hit = segmentHitsRect(a, b, own ? boxOf(n, -1) : boxOf(n, margin));
            if (hit) throw new Error(`edge ${e.source}->${e.target} crosses term ${n.id}`);
          }
    });

    it('bends only between layers, so a smooth curve through the points stays clear of boxes too', () => {
      const layerBands = [...new Set(layout.nodes.map((n) => n.y))];
      const bends = layout.edges.flatMap((e) => segmentsOf(e.points).filter(([a, b]) => a.x !== b.x));
      const inBand = bends.filter(([a, b]) => {
        const [low, high] = [Math.min(a.y, b.y), Math.max(a.y, b.y)];
        return layerBands.some((top) => high > top && low < top + NODE_H);
      });
      expect(inBand).toEqual([]);
    });
  });

  it('orders a layer by its parents, so edges do not cross needlessly', () => {
    // By name the children would sit as [a, b] under [alpha, beta], a child of beta left of a child of alpha.
    const named = (id: number, name: string): SubgraphNode => ({ ...node(id, `GO:${id}`), name });
    const swapped: Subgraph = {
      nodes: [named(1, 'alpha'), named(2, 'beta'), named(3, 'a'), named(4, 'b'), named(5, 'c')],
      edges: [isA(3, 2), isA(4, 1), isA(5, 2), isA(5, 4)],
    };
    expect(countCrossings(layoutSubgraph(swapped))).toBe(0);
  });

  it('draws a tree, even one given in a scrambled order, without crossings', () => {
    // Every term has one parent; parents are picked so that the order by name is a poor one.
    const nodes = Array.from({ length: 40 }, (_, i) =>
      node(i + 1, `GO:${String((i * 17) % 40).padStart(7, '0')}`),
    );
    const edges = nodes.slice(1).map((n) => isA(n.id, 1 + ((n.id * 7) % (n.id - 1))));
    expect(countCrossings(layoutSubgraph({ nodes, edges }))).toBe(0);
  });

  it('gives the same drawing whatever the order of the input', () => {
    const graph = generatedDag(50, 5);
    const shuffled: Subgraph = { nodes: [...graph.nodes].reverse(), edges: [...graph.edges].reverse() };
    const [a, b] = [layoutSubgraph(graph), layoutSubgraph(shuffled)];
    const byId = (l: SubgraphLayout) => [...l.nodes].sort((m, n) => m.id - n.id);
    expect(byId(b)).toEqual(byId(a));
    expect([...b.edges].reverse()).toEqual(a.edges);
  });

  it('lays out a few hundred terms quickly', () => {
    const graph = generatedDag(400, 13);
    const started = performance.now();
    layoutSubgraph(graph);
    // A generous bound on a shared two-core machine: it guards against a quadratic blow-up, not a few ms.
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe('edgePathData', () => {
  const cases: { name: string; points: Point[]; expected: string }[] = [
    { name: 'no points', points: [], expected: '' },
    {
      name: 'a vertical run is a line',
      points: [
        { x: 10, y: 100 },
        { x: 10, y: 20 },
      ],
      expected: 'M 10 100 L 10 20',
    },
    {
      name: 'a bend is a curve with vertical ends, its control points at mid-height',
      points: [
        { x: 10, y: 100 },
        { x: 10, y: 92 },
        { x: 50, y: 60 },
        { x: 50, y: 52 },
      ],
      expected: 'M 10 100 L 10 92 C 10 76 50 76 50 60 L 50 52',
    },
  ];
  it.each(cases)('$name', ({ points, expected }) => expect(edgePathData(points)).toBe(expected));
});
