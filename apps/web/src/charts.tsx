import { KeyboardEvent, useId, useMemo } from 'react';
import { Subgraph, TermCount } from './api';
import { edgePathData, layoutSubgraph, NODE_H, NODE_W } from './graph-layout';
import { fmtNum } from './ui';

const ASPECT_COLOURS: Record<string, string> = { F: '#2f6f9f', P: '#3f8f4f', C: '#9f5f2f' };

/** Horizontal bars of the most predicted terms of one aspect; the table beside it carries the numbers. */
export function TermBars({
  title,
  terms,
  rows = 'predicted term',
}: {
  title: string;
  terms: TermCount[];
  /** What was counted, for the caption (e.g. `homology-backed term scoring at least 0.3`). */
  rows?: string;
}) {
  const captionId = useId();
  const rowHeight = 22;
  const labelWidth = 260;
  const barWidth = 220;
  const max = Math.max(1, ...terms.map((t) => t.protein_count));
  const height = terms.length * rowHeight + 8;
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${labelWidth + barWidth + 50} ${height}`}
        role="img"
        aria-labelledby={captionId}
        preserveAspectRatio="xMinYMin meet"
      >
        {terms.map((term, i) => {
          const width = (term.protein_count / max) * barWidth;
          const y = i * rowHeight + 4;
          return (
            <g key={term.go_id}>
              <title>{`${term.go_id} ${term.go_name ?? ''}: ${term.protein_count} proteins, ${term.prediction_count} predictions`}</title>
              <text x={labelWidth - 6} y={y + 14} textAnchor="end" className="chart-label">
                {truncate(`${term.go_name ?? term.go_id}`, 38)}
              </text>
              <rect
                x={labelWidth}
                y={y + 3}
                width={Math.max(width, 1)}
                height={rowHeight - 8}
                fill={ASPECT_COLOURS[term.aspect] ?? '#555'}
              />
              <text x={labelWidth + width + 4} y={y + 14} className="chart-value">
                {term.protein_count}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption id={captionId}>
        {title}: proteins per {rows} (top {terms.length})
      </figcaption>
    </figure>
  );
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** Light to dark blue over [0, 1]; text switches to white on dark cells. */
export function heatColour(value: number): { fill: string; text: string } {
  const v = Math.max(0, Math.min(1, value));
  const lightness = 95 - v * 60;
  return { fill: `hsl(210 60% ${lightness}%)`, text: lightness < 55 ? '#fff' : '#111' };
}

export interface HeatCell {
  row: string;
  column: string;
  value: number | undefined;
  detail: string;
}

export function Heatmap({
  title,
  rows,
  columns,
  cells,
}: {
  title: string;
  rows: { key: string; label: string }[];
  columns: { key: string; label: string }[];
  cells: HeatCell[];
}) {
  const captionId = useId();
  const cellWidth = 110;
  const cellHeight = 36;
  const rowLabel = 170;
  const header = 44;
  const byKey = new Map(cells.map((c) => [`${c.row}\u0000${c.column}`, c]));
  const width = rowLabel + columns.length * cellWidth;
  const height = header + rows.length * cellHeight;
  return (
    <figure className="chart heatmap">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-labelledby={captionId}
        style={{ maxWidth: width }}
      >
        {columns.map((c, j) => (
          <text
            key={c.key}
            x={rowLabel + j * cellWidth + cellWidth / 2}
            y={header - 12}
            textAnchor="middle"
            className="chart-label"
          >
            <title>{c.label}</title>
            {truncate(c.label, 16)}
          </text>
        ))}
        {rows.map((r, i) => (
          <g key={r.key}>
            <text
              x={rowLabel - 8}
              y={header + i * cellHeight + cellHeight / 2 + 4}
              textAnchor="end"
              className="chart-label"
            >
              {truncate(r.label, 22)}
            </text>
            {columns.map((c, j) => {
              const cell = byKey.get(`${r.key}\u0000${c.key}`);
              const x = rowLabel + j * cellWidth;
              const y = header + i * cellHeight;
              if (cell?.value === undefined)
                return (
                  <rect
                    key={c.key}
                    x={x + 1}
                    y={y + 1}
                    width={cellWidth - 2}
                    height={cellHeight - 2}
                    className="heat-empty"
                  />
                );
              const colour = heatColour(cell.value);
              return (
                <g key={c.key}>
                  <title>{cell.detail}</title>
                  <rect
                    x={x + 1}
                    y={y + 1}
                    width={cellWidth - 2}
                    height={cellHeight - 2}
                    fill={colour.fill}
                  />
                  <text
                    x={x + cellWidth / 2}
                    y={y + cellHeight / 2 + 4}
                    textAnchor="middle"
                    fill={colour.text}
                    className="chart-value"
                  >
                    {fmtNum(cell.value)}
                  </text>
                </g>
              );
            })}
          </g>
        ))}
      </svg>
      <figcaption id={captionId}>{title}</figcaption>
    </figure>
  );
}

const RELATION_CLASS: Record<string, string> = {
  is_a: 'edge-is-a',
  part_of: 'edge-part-of',
};

/** The ancestors of the chosen terms as an SVG; every term is a focusable button that re-centres the view. */
export function GoGraph({ graph, onSelect }: { graph: Subgraph; onSelect: (goId: string) => void }) {
  const layout = useMemo(() => layoutSubgraph(graph), [graph]);
  const activate = (event: KeyboardEvent, goId: string) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelect(goId);
    }
  };
  return (
    <div className="graph-scroll">
      <svg
        className="go-graph"
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        width={layout.width}
        height={layout.height}
        aria-label="GO subgraph: parents above their children"
      >
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="10"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M 0 0 L 10 5 L 0 10 z" className="arrow-head" />
          </marker>
        </defs>
        {layout.edges.map((e) => (
          <path
            key={`${e.source}-${e.target}-${e.relation_type}`}
            d={edgePathData(e.points)}
            fill="none"
            className={`edge ${RELATION_CLASS[e.relation_type] ?? 'edge-regulates'}`}
            markerEnd="url(#arrow)"
          />
        ))}
        {layout.nodes.map((n) => (
          <g
            key={n.id}
            className={`go-node${n.is_query ? ' go-node-query' : ''}`}
            transform={`translate(${n.x} ${n.y})`}
            role="button"
            tabIndex={0}
            aria-label={`${n.go_id} ${n.name}${n.is_query ? ' (selected)' : ''}`}
            onClick={() => onSelect(n.go_id)}
            onKeyDown={(event) => activate(event, n.go_id)}
          >
            <title>{`${n.go_id} ${n.name}`}</title>
            <rect width={NODE_W} height={NODE_H} rx={6} style={{ stroke: ASPECT_COLOURS[n.aspect ?? ''] }} />
            <text x={8} y={17} className="go-id">
              {n.go_id}
            </text>
            <text x={8} y={34} className="go-name">
              {truncate(n.name ?? '', 26)}
            </text>
          </g>
        ))}
      </svg>
    </div>
  );
}
