import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  CafaEvaluationError,
  type CafaNamespaceResult,
  type CafaOptions,
  createCafaEvaluator,
} from '@svc/domain';

/**
 * `node -r ./tools/register.js tools/evaluate/evaluate.ts --obo O.obo --gt GT.tsv --pred DIR_OR_FILE ...`:
 * the CAFA evaluator of libs/domain on files, with the reference tool's defaults for our recipe
 * (fill propagation, orphans removed, cafa normalisation, step 0.01). Prints JSON: namespace ->
 * metrics for a prediction file, file name -> namespace -> metrics for a prediction folder.
 *
 * Exit codes: 0 done, 1 the evaluation failed (a reference crash condition), 2 invalid arguments.
 */

export const USAGE = `usage: evaluate.ts --obo O.obo --gt GT.tsv --pred DIR_OR_FILE [--ia IA.tsv] [--toi TOI.txt]
                   [--known KNOWN.tsv] [--th-step 0.01] [--max-terms N] [--prop max|fill] [--keep-orphans]`;

export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

export type NamespaceMetrics = Record<string, CafaNamespaceResult>;
export type EvaluateOutput = NamespaceMetrics | Record<string, NamespaceMetrics>;

interface CliArgs {
  obo: string;
  gt: string;
  pred: string;
  ia?: string;
  toi?: string;
  known?: string;
  options: Partial<CafaOptions>;
}

/** Parses and checks the command line; no I/O. */
export function parseEvaluateArgs(argv: readonly string[]): CliArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        obo: { type: 'string' },
        gt: { type: 'string' },
        pred: { type: 'string' },
        ia: { type: 'string' },
        toi: { type: 'string' },
        known: { type: 'string' },
        'th-step': { type: 'string', default: '0.01' },
        'max-terms': { type: 'string' },
        prop: { type: 'string', default: 'fill' },
        'keep-orphans': { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  const { obo, gt, pred } = values;
  if (obo === undefined || gt === undefined || pred === undefined) {
    throw new CliUsageError('--obo, --gt and --pred are required');
  }
  const thStep = Number(values['th-step']);
  if (!(thStep > 0 && thStep < 1)) throw new CliUsageError(`--th-step must lie in (0, 1)`);
  const maxTermsText = values['max-terms'];
  const maxTerms = maxTermsText === undefined ? null : Number(maxTermsText);
  if (maxTerms !== null && !(Number.isInteger(maxTerms) && maxTerms >= 0)) {
    throw new CliUsageError('--max-terms must be a non-negative integer');
  }
  const propagation = values.prop;
  if (propagation !== 'fill' && propagation !== 'max') throw new CliUsageError('--prop must be max or fill');
  return {
    obo,
    gt,
    pred,
    ia: values.ia,
    toi: values.toi,
    known: values.known,
    options: { propagation, keepOrphans: values['keep-orphans'], thStep, maxTerms, norm: 'cafa' },
  };
}

/** Every file under `dir`, named like the reference names methods: relative path, '/' -> '_'. */
function predictionFiles(dir: string): { name: string; file: string }[] {
  const found: { name: string; file: string }[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push({ name: path.relative(dir, full).split(path.sep).join('_'), file: full });
    }
  };
  walk(dir);
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const readText = (file: string): string => readFileSync(file, 'utf8');

/** Runs the evaluation described by `argv` and returns what the CLI prints. */
export function main(argv: readonly string[]): EvaluateOutput {
  const args = parseEvaluateArgs(argv);
  const evaluator = createCafaEvaluator({
    ontology: readText(args.obo),
    groundTruth: readText(args.gt),
    known: args.known === undefined ? null : readText(args.known),
    ia: args.ia === undefined ? null : readText(args.ia),
    toi: args.toi === undefined ? null : readText(args.toi),
    options: args.options,
  });
  if (!statSync(args.pred).isDirectory()) return evaluator.evaluate(readText(args.pred)).namespaces;
  const output: Record<string, NamespaceMetrics> = {};
  for (const { name, file } of predictionFiles(args.pred)) {
    output[name] = evaluator.evaluate(readText(file)).namespaces;
  }
  return output;
}

if (require.main === module) {
  try {
    process.stdout.write(`${JSON.stringify(main(process.argv.slice(2)), null, 1)}\n`);
  } catch (error) {
    if (error instanceof CliUsageError) {
      process.stderr.write(`evaluate: ${error.message}\n${USAGE}\n`);
      process.exit(2);
    }
    const message = error instanceof CafaEvaluationError ? `${error.code}: ${error.message}` : String(error);
    process.stderr.write(`evaluate: ${message}\n`);
    process.exit(1);
  }
}
