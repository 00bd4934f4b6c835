/**
 * Pair-level metrics of scored (protein, term) predictions against binary labels: the best F1 over
 * the thresholds 0.01, 0.02, ... 1.00 (a pair is predicted when score >= tau, ties to the lowest
 * tau), and the area under the precision-recall curve as average precision (the precision at each
 * positive, in decreasing score order, tied scores taken together).
 */
export interface PairMetrics {
  fmax: number;
  threshold: number | null;
  precision: number;
  recall: number;
  auc_pr: number;
  positives: number;
  pairs: number;
}

export function pairMetrics(scores: readonly number[], labels: readonly boolean[]): PairMetrics {
  const positives = labels.filter(Boolean).length;
  const out: PairMetrics = {
    fmax: 0,
    threshold: null,
    precision: 0,
    recall: 0,
    auc_pr: 0,
    positives,
    pairs: scores.length,
  };
  if (positives === 0 || scores.length === 0) return out;
  for (let i = 1; i <= 100; i += 1) {
    const tau = i / 100;
    let tp = 0;
    let predicted = 0;
    scores.forEach((s, j) => {
      if (s >= tau) {
        predicted += 1;
        if (labels[j] === true) tp += 1;
      }
    });
    if (predicted === 0) continue;
    const precision = tp / predicted;
    const recall = tp / positives;
    const f = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    if (f > out.fmax) Object.assign(out, { fmax: f, threshold: tau, precision, recall });
  }
  const order = scores.map((s, j) => ({ s, positive: labels[j] === true })).sort((a, b) => b.s - a.s);
  let tp = 0;
  let seen = 0;
  let area = 0;
  for (let i = 0; i < order.length;) {
    let j = i;
    let groupPositives = 0;
    while (j < order.length && order[j]!.s === order[i]!.s) {
      if (order[j]!.positive) groupPositives += 1;
      j += 1;
    }
    tp += groupPositives;
    seen += j - i;
    area += (groupPositives / positives) * (tp / seen);
    i = j;
  }
  out.auc_pr = area;
  return out;
}
