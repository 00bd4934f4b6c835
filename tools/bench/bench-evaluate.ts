import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCafaEvaluator, seededRandom } from '@svc/domain';

/**
 * `node -r ./tools/register.js tools/bench/bench-evaluate.ts [--proteins 20000] [--per-protein 200]
 * [--terms 40000] [--seed 1]`: the CAFA evaluator on the case EVALUATOR.md quotes for the reference
 * (20,000 proteins x 200 predictions on a 40,000-term ontology, with IA and TOI: 1,266 s and
 * 13.65 GB there). Target: under 25 s and 1.5 GB.
 *
 * The synthetic files are written by this process, then a child process reads and evaluates them,
 * so its peak RSS (getrusage maxRSS) measures the evaluation and not the generator.
 */

const NAMESPACES = [
  { name: 'biological_process', share: 0.55 },
  { name: 'molecular_function', share: 0.27 },
  { name: 'cellular_component', share: 0.18 },
];

const goId = (i: number): string => `GO:${String(i).padStart(7, '0')}`;

interface Synthetic {
  obo: string;
  gt: string;
  ia: string;
  toi: string;
  predictions: string;
}

/** A random DAG per namespace: parents drawn among earlier terms, so depth grows like log(size). */
function generate(terms: number, proteins: number, perProtein: number, seed: number): Synthetic {
  const rand = seededRandom(seed);
  const pick = (n: number): number => Math.floor(rand() * n);
  const oboParts: string[] = ['format-version: 1.2\ndata-version: synthetic\n'];
  const byNamespace: number[][] = NAMESPACES.map(() => []);
  const parentsOf: number[][] = [];
  let next = 1;
  NAMESPACES.forEach(({ name, share }, ns) => {
    const size = ns === NAMESPACES.length - 1 ? terms - next + 1 : Math.round(terms * share);
    const own = byNamespace[ns] ?? [];
    for (let k = 0; k < size; k++, next++) {
      const lines = [`\n[Term]\nid: ${goId(next)}\nname: term ${next}\nnamespace: ${name}`];
      const parents = new Set<number>();
      const wanted = k === 0 ? 0 : 1 + (rand() < 0.35 ? 1 : 0) + (rand() < 0.1 ? 1 : 0);
      while (parents.size < Math.min(wanted, k)) parents.add(own[Math.floor(k * rand())] ?? 0);
      for (const p of parents) {
        lines.push(rand() < 0.15 ? `relationship: part_of ${goId(p)} ! p` : `is_a: ${goId(p)} ! p`);
      }
      if (rand() < 0.03) lines.push(`alt_id: ${goId(terms + next)}`);
      if (k > 0 && rand() < 0.005) lines.push('is_obsolete: true');
      oboParts.push(lines.join('\n'));
      own.push(next);
      parentsOf[next] = [...parents];
    }
  });

  const ia: string[] = [];
  const toi: string[] = [];
  for (let t = 1; t < next; t++) {
    const isRoot = (parentsOf[t]?.length ?? 0) === 0;
    ia.push(`${goId(t)}\t${isRoot || rand() < 0.2 ? 0 : (-Math.log2(rand() + 1e-9)).toFixed(4)}`);
    if (rand() < 0.9) toi.push(goId(t));
  }

  const gt: string[] = [];
  const predictions: string[] = [];
  for (let p = 0; p < proteins; p++) {
    const protein = `P${String(p).padStart(6, '0')}`;
    const chosen = NAMESPACES.map((_, ns) => ns).filter(() => rand() < 0.6);
    if (chosen.length === 0) chosen.push(pick(NAMESPACES.length));
    const truth: number[] = [];
    for (const ns of chosen) {
      const own = byNamespace[ns] ?? [];
      // Truth sits in the deeper half, as specific annotations do.
      const half = Math.floor(own.length / 2);
      for (let i = 1 + pick(5); i > 0; i--) truth.push(own[half + pick(own.length - half)] ?? 1);
    }
    for (const t of truth) gt.push(`${protein}\t${goId(t)}`);
    const lines: string[] = [];
    for (let i = 0; i < perProtein; i++) {
      const near = rand() < 0.15 ? truth[pick(truth.length)] : undefined;
      // Mostly the protein's own namespaces; the rest is filtered out by the evaluator, as in real files.
      const ns = rand() < 0.9 ? (chosen[pick(chosen.length)] ?? 0) : pick(NAMESPACES.length);
      const own = byNamespace[ns] ?? [];
      const term = near ?? own[pick(own.length)] ?? 1;
      lines.push(
        `${protein}\t${goId(term)}\t${(near === undefined ? rand() * 0.6 : 0.3 + rand() * 0.7).toFixed(3)}`,
      );
    }
    predictions.push(lines.join('\n'));
  }
  return {
    obo: oboParts.join('\n') + '\n',
    gt: gt.join('\n') + '\n',
    ia: ia.join('\n') + '\n',
    toi: toi.join('\n') + '\n',
    predictions: predictions.join('\n') + '\n',
  };
}

const seconds = (since: bigint): number => Number((Number(process.hrtime.bigint() - since) / 1e9).toFixed(2));
const cpuMicros = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const peakRssMb = (): number => Math.round(process.resourceUsage().maxRSS / 1024);

/** Child side: read the files, evaluate, report timings and peak memory as one JSON line. */
function evaluateFiles(dir: string): void {
  const started = process.hrtime.bigint();
  const read = (name: string): string => readFileSync(path.join(dir, name), 'utf8');
  const inputs = { obo: read('go.obo'), gt: read('gt.tsv'), ia: read('ia.tsv'), toi: read('toi.txt') };
  const predictions = read('predictions.tsv');
  const readSeconds = seconds(started);
  const evaluating = process.hrtime.bigint();
  const evaluator = createCafaEvaluator({
    ontology: inputs.obo,
    groundTruth: inputs.gt,
    ia: inputs.ia,
    toi: inputs.toi,
  });
  const prepareSeconds = seconds(evaluating);
  const result = evaluator.evaluate(predictions);
  const headline = Object.fromEntries(
    Object.entries(result.namespaces).map(([ns, r]) => [
      ns,
      { f_micro_w: r.f_micro_w, fmax_w: r.fmax_w, tau: r.tau },
    ]),
  );
  process.stdout.write(
    `${JSON.stringify({
      read_seconds: readSeconds,
      prepare_seconds: prepareSeconds,
      evaluate_seconds: seconds(evaluating),
      total_seconds: seconds(started),
      // CPU time next to wall time: on a shared machine the wall clock also counts other processes.
      cpu_seconds: Number((cpuMicros() / 1e6).toFixed(2)),
      peak_rss_mb: peakRssMb(),
      headline,
    })}\n`,
  );
}

function run(): void {
  const { values } = parseArgs({
    options: {
      child: { type: 'string' },
      proteins: { type: 'string', default: '20000' },
      'per-protein': { type: 'string', default: '200' },
      terms: { type: 'string', default: '40000' },
      seed: { type: 'string', default: '1' },
    },
  });
  if (values.child !== undefined) return evaluateFiles(values.child);

  const dir = mkdtempSync(path.join(tmpdir(), 'bench-evaluate-'));
  try {
    const generating = process.hrtime.bigint();
    const data = generate(
      Number(values.terms),
      Number(values.proteins),
      Number(values['per-protein']),
      Number(values.seed),
    );
    const files: Record<string, string> = {
      'go.obo': data.obo,
      'gt.tsv': data.gt,
      'ia.tsv': data.ia,
      'toi.txt': data.toi,
      'predictions.tsv': data.predictions,
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    const generateSeconds = seconds(generating);
    const register = path.join(__dirname, '../register.js');
    const report = execFileSync(process.execPath, ['-r', register, __filename, '--child', dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 24,
    });
    const measured = JSON.parse(report) as Record<string, unknown>;
    const lines = data.predictions.length === 0 ? 0 : Number(values.proteins) * Number(values['per-protein']);
    process.stdout.write(
      `${JSON.stringify({ case: { terms: Number(values.terms), proteins: Number(values.proteins), prediction_lines: lines }, generate_seconds: generateSeconds, ...measured }, null, 1)}\n`,
    );
  } finally {
    if (process.env.KEEP_BENCH_DIR === undefined) rmSync(dir, { recursive: true, force: true });
    else process.stderr.write(`kept ${dir}\n`);
  }
}

try {
  run();
} catch (error) {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
}
