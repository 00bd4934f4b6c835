import { summariseNamespace } from './cafa-best';
import { thresholdGrid } from './cafa-curve';
import { CafaEvaluationError } from './cafa-errors';
import {
  type CafaAnnotation,
  iaByTerm,
  parseIaText,
  parseToiText,
  readTermSets,
  scoredTerms,
  type TermSetsByNamespace,
  toiByTerm,
} from './cafa-inputs';
import { evaluateNamespaceRows, type NamespaceContext } from './cafa-namespace';
import { CafaOntology, parseCafaOntology } from './cafa-ontology';
import { type CafaPrediction, readPredictions } from './cafa-predictions';
import { OntologyWalker } from './cafa-propagation';
import {
  type CafaEvaluation,
  type CafaNamespaceResult,
  type CafaOptions,
  type CafaThresholdRow,
  DEFAULT_CAFA_OPTIONS,
} from './cafa-types';

/**
 * Everything but the predictions. Text inputs follow the reference's file rules (EVALUATOR.md §2);
 * structured ones let the worker pass rows from the database without writing files.
 */
export interface CafaEvaluatorInput {
  /** OBO text, or an ontology built once with `new CafaOntology(records)` and reused. */
  ontology: string | CafaOntology;
  groundTruth: string | Iterable<CafaAnnotation>;
  /** Known terms (PK): parsed and propagated like the ground truth, then excluded from scoring. */
  known?: string | Iterable<CafaAnnotation> | null;
  /** IA text (`<term> <value>` lines) or values by canonical term id; enables the `_w` metrics. */
  ia?: string | ReadonlyMap<string, number> | null;
  /** Terms of interest: text (first token per line) or ids. */
  toi?: string | Iterable<string> | null;
  options?: Partial<CafaOptions>;
}

export interface CafaEvaluator {
  /** Scores one prediction source (one file of the reference's prediction folder). */
  evaluate(predictions: string | Iterable<CafaPrediction>): CafaEvaluation;
}

function checkedOptions(given: Partial<CafaOptions> | undefined): CafaOptions {
  const options: CafaOptions = { ...DEFAULT_CAFA_OPTIONS, ...given };
  const { maxTerms, propagation, norm } = options;
  if (maxTerms !== null && (!Number.isInteger(maxTerms) || maxTerms < 0)) {
    throw new CafaEvaluationError(
      'invalid_option',
      `max_terms must be a non-negative integer, got ${maxTerms}`,
    );
  }
  if (propagation !== 'fill' && propagation !== 'max') {
    throw new CafaEvaluationError('invalid_option', `unknown propagation '${String(propagation)}'`);
  }
  if (norm !== 'cafa') throw new CafaEvaluationError('invalid_option', `unsupported norm '${String(norm)}'`);
  return options;
}

/** GT* or K*: each protein's terms replaced by their ancestor closure within the namespace. */
function propagateSets(walker: OntologyWalker, sets: TermSetsByNamespace): Map<string, Int32Array>[] {
  return sets.map((byProtein) => {
    const closed = new Map<string, Int32Array>();
    for (const [protein, terms] of byProtein) closed.set(protein, walker.ancestorClosure(terms));
    return closed;
  });
}

/** Reference crash conditions that depend only on the fixed inputs, checked up front. */
function checkCoverage(
  ontology: CafaOntology,
  truth: TermSetsByNamespace,
  known: TermSetsByNamespace | null,
  inToi: Uint8Array | null,
): void {
  ontology.namespaces.forEach((name, ns) => {
    if ((truth[ns]?.size ?? 0) === 0) return;
    if (known !== null && (known[ns]?.size ?? 0) === 0) {
      throw new CafaEvaluationError(
        'known_missing_namespace',
        `known terms have no entry in namespace ${name}`,
      );
    }
    if (inToi !== null && !ontology.termNamespace.some((n, t) => n === ns && inToi[t] === 1)) {
      throw new CafaEvaluationError('toi_empty_namespace', `the TOI lists no term of namespace ${name}`);
    }
  });
}

/**
 * Prepares a CAFA evaluation (the `cafaeval` tool with PK support, EVALUATOR.md) for one ground
 * truth; `evaluate` can then score several prediction sources against it. Pure and synchronous:
 * all inputs are strings or in-memory structures.
 */
export function createCafaEvaluator(input: CafaEvaluatorInput): CafaEvaluator {
  const options = checkedOptions(input.options);
  const taus = thresholdGrid(options.thStep);
  const ontology = typeof input.ontology === 'string' ? parseCafaOntology(input.ontology) : input.ontology;
  const walker = new OntologyWalker(ontology);

  const truthSets = readTermSets(ontology, input.groundTruth, 'ground truth');
  const knownSets = input.known == null ? null : readTermSets(ontology, input.known, 'known terms');
  const toi = input.toi == null ? null : typeof input.toi === 'string' ? parseToiText(input.toi) : input.toi;
  const inToi = toi === null ? null : toiByTerm(ontology, toi);
  checkCoverage(ontology, truthSets, knownSets, inToi);

  const iaValues = input.ia == null ? null : typeof input.ia === 'string' ? parseIaText(input.ia) : input.ia;
  const scored = scoredTerms(ontology, {
    keepOrphans: options.keepOrphans,
    inToi,
    ia: iaValues === null ? null : iaByTerm(ontology, iaValues),
  });
  const truth = propagateSets(walker, truthSets);
  const known = knownSets === null ? null : propagateSets(walker, knownSets);

  let stamp = 0;
  const context: NamespaceContext = {
    walker,
    taus,
    scored,
    propagation: options.propagation,
    truthMark: new Int32Array(ontology.size),
    knownMark: new Int32Array(ontology.size),
    nextStamp: () => ++stamp,
  };

  return {
    evaluate(predictions) {
      const table = readPredictions(ontology, truthSets, predictions, options.maxTerms);
      const namespaces = new Map<string, CafaNamespaceResult>();
      const rows = new Map<string, CafaThresholdRow[]>();
      ontology.namespaces.forEach((name, ns) => {
        const byProtein = table.byNamespace[ns];
        if (!table.inserted[ns] || byProtein === undefined) return;
        if (![...byProtein.values()].some((p) => p.nonZero > 0)) {
          throw new CafaEvaluationError(
            'all_zero_scores',
            `every prediction score in namespace ${name} is 0`,
          );
        }
        const nsRows = evaluateNamespaceRows(context, {
          truth: truth[ns] ?? new Map(),
          known: known?.[ns] ?? null,
          predictions: byProtein,
        });
        const summary = summariseNamespace(nsRows, scored.weights !== null);
        if (summary === null) return;
        namespaces.set(name, summary);
        rows.set(name, nsRows);
      });
      return { namespaces: Object.fromEntries(namespaces), rows: Object.fromEntries(rows) };
    },
  };
}

/** One-shot form of `createCafaEvaluator(input).evaluate(predictions)`. */
export function evaluateCafa(
  input: CafaEvaluatorInput & { predictions: string | Iterable<CafaPrediction> },
): CafaEvaluation {
  return createCafaEvaluator(input).evaluate(input.predictions);
}
