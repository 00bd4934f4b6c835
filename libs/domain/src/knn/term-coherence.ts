/**
 * Parses a term-embedding file: one term per line, `GO:0000001<TAB or space>v1 v2 ...` (values
 * separated by spaces, tabs or commas); blank lines and `#` comments are skipped. All vectors must
 * share one dimension.
 */
export function parseTermEmbeddings(text: string): Map<string, Float64Array> {
  const out = new Map<string, Float64Array>();
  let dimension: number | null = null;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const [term, ...rest] = line.split(/[\s,]+/);
    const values = rest.map(Number);
    if (
      term === undefined ||
      !/^GO:\d{7}$/.test(term) ||
      values.length === 0 ||
      values.some((v) => !Number.isFinite(v))
    )
      throw new Error(`term-embedding file line ${index + 1}: expected a GO id and numbers`);
    if (dimension !== null && values.length !== dimension)
      throw new Error(
        `term-embedding file line ${index + 1}: ${values.length} values, expected ${dimension}`,
      );
    dimension = values.length;
    out.set(term, Float64Array.from(values));
  });
  return out;
}

function cosine(a: Float64Array, b: Float64Array): number | null {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? null : dot / Math.sqrt(na * nb);
}

/**
 * The v6 feature: for each (query, term) row, the cosine similarity between the term's embedding
 * and the mean embedding of the query's other predicted terms, a measure of how well the term fits
 * the rest of the prediction. Null when the term has no embedding or the query no other embedded term.
 */
export function termCoherence(
  queries: readonly string[],
  terms: readonly string[],
  vectors: ReadonlyMap<string, Float64Array>,
): (number | null)[] {
  const byQuery = new Map<string, number[]>();
  queries.forEach((q, i) => {
    let list = byQuery.get(q);
    if (list === undefined) byQuery.set(q, (list = []));
    list.push(i);
  });
  const out: (number | null)[] = new Array<number | null>(terms.length).fill(null);
  for (const rows of byQuery.values()) {
    const dimension = [...rows].map((i) => vectors.get(terms[i]!)).find((v) => v !== undefined)?.length;
    if (dimension === undefined) continue;
    const sum = new Float64Array(dimension);
    let count = 0;
    for (const i of rows) {
      const v = vectors.get(terms[i]!);
      if (v === undefined) continue;
      for (let d = 0; d < dimension; d += 1) sum[d] = sum[d]! + v[d]!;
      count += 1;
    }
    for (const i of rows) {
      const v = vectors.get(terms[i]!);
      if (v === undefined || count < 2) continue;
      const others = sum.map((x, d) => (x - v[d]!) / (count - 1));
      out[i] = cosine(v, others);
    }
  }
  return out;
}
