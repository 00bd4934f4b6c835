import { fitPca, projectPca } from './pca';

/** A deterministic pseudo-random sequence in [-1, 1). */
function noise(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 31 - 1;
  };
}

describe('fitPca', () => {
  it('matches the closed-form eigen-decomposition of a 2x2 covariance', () => {
    const next = noise(7);
    const points = Array.from({ length: 400 }, () => {
      const a = next();
      return [3 + 2 * a + 0.3 * next(), -1 + a + 0.5 * next()];
    });
    const model = fitPca(points, 2);
    // Sample covariance, then the textbook eigenvalues of [[sxx, sxy], [sxy, syy]].
    const n = points.length;
    const mx = points.reduce((s, p) => s + p[0]!, 0) / n;
    const my = points.reduce((s, p) => s + p[1]!, 0) / n;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    for (const [x, y] of points) {
      sxx += ((x! - mx) * (x! - mx)) / (n - 1);
      syy += ((y! - my) * (y! - my)) / (n - 1);
      sxy += ((x! - mx) * (y! - my)) / (n - 1);
    }
    const half = (sxx + syy) / 2;
    const root = Math.sqrt(((sxx - syy) / 2) ** 2 + sxy * sxy);
    expect(model.mean[0]).toBeCloseTo(mx, 12);
    expect(model.variances[0]).toBeCloseTo(half + root, 9);
    expect(model.variances[1]).toBeCloseTo(half - root, 9);
    const [vx, vy] = [sxy, half + root - sxx];
    const norm = Math.hypot(vx, vy);
    const first = model.components[0]!;
    expect(Math.abs(first[0]! * (vx / norm) + first[1]! * (vy / norm))).toBeCloseTo(1, 9);
  });

  it('recovers a rotated basis in order of variance, with positive peak entries', () => {
    const next = noise(11);
    const s = Math.SQRT1_2;
    const axes = [
      [s, s, 0],
      [0, 0, 1],
      [s, -s, 0],
    ];
    const spreads = [5, 2, 0.5];
    const points = Array.from({ length: 1000 }, () => {
      const coefficients = spreads.map((spread) => spread * next());
      return [0, 1, 2].map((j) => coefficients.reduce((sum, c, i) => sum + c * axes[i]![j]!, 0));
    });
    const model = fitPca(points, 3);
    model.components.forEach((component, i) => {
      const dot = component.reduce((sum, x, j) => sum + x * axes[i]![j]!, 0);
      expect(Math.abs(dot)).toBeGreaterThan(0.999);
      const peak = [...component].reduce((best, x) => (Math.abs(x) > Math.abs(best) ? x : best), 0);
      expect(peak).toBeGreaterThan(0);
    });
    expect(model.variances[0]).toBeGreaterThan(model.variances[1]!);
    expect(model.variances[1]).toBeGreaterThan(model.variances[2]!);
  });

  it('projects onto the components around the mean and stops at the data rank', () => {
    const model = fitPca(
      [
        [1, 0, 0],
        [3, 0, 0],
      ],
      3,
    );
    expect(model.components).toHaveLength(1);
    expect(projectPca(model, [4, 9, 9])[0]).toBeCloseTo(2, 12);
    expect(() => projectPca(model, [1, 2])).toThrow(RangeError);
  });
});

describe('fitPca with fewer vectors than dimensions', () => {
  it('finds the same components and variances through the Gram matrix as through the covariance', () => {
    const next = noise(3);
    const basis = [Array.from({ length: 40 }, () => next()), Array.from({ length: 40 }, () => next())];
    const points = Array.from({ length: 12 }, () => {
      const [a, b] = [4 * next(), next()];
      return basis[0]!.map((x, j) => a * x + b * basis[1]![j]! + 0.01 * next());
    });
    const gram = fitPca(points, 3, 'gram');
    const covariance = fitPca(points, 3, 'covariance');
    expect(fitPca(points, 3).components).toEqual(gram.components);
    gram.components.forEach((component, i) => {
      const other = covariance.components[i]!;
      const cosine = component.reduce((sum, x, j) => sum + x * other[j]!, 0);
      expect(cosine).toBeCloseTo(1, 6);
      expect(gram.variances[i]).toBeCloseTo(covariance.variances[i]!, 6);
    });
  });
});
