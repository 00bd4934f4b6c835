import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  AssociationIndex,
  associationIndexBytes,
  type AssociationModel,
  BlendModel,
  blendTerms,
  blendWeight,
  GoAspect,
  informedPrior,
  type TermPrior,
  HomologyHit,
  isSelfHit,
  QuerySummary,
  splitIsoform,
  TransferredTerm,
} from '@svc/domain';
import { diamondSearch, diamondSearchToFile, type DiamondSearchOptions } from '@svc/inference';
import { Repositories, type SetPrior } from '@svc/persistence';
import {
  checkAssociationFits,
  HomologyPool,
  homologyPool,
  type HomologyPoolKey,
  HomologyPoolSettings,
  referenceId,
  type SubmittedTerm,
} from './homology-pool';
import { eventLoopPause } from './event-loop';
import { type PriorComposition, type PriorWeight, setPriorOf } from './prior-composition';
import { withSearchJobErrors } from './search-failure';

/** Hits kept per query after self-exclusion: the homology baseline's `--max-target-seqs 50`. */
export const HOMOLOGY_HITS = 50;
/** Extra hits asked of DIAMOND, so dropping the query itself (and its isoforms) still leaves 50. */
export const HOMOLOGY_SELF_MARGIN = 10;

export interface HomologyQuery {
  accession: string;
  sequence_id: number;
  taxonomy_id?: string | null;
  /**
   * GO ids the submitter says are known of the query (its upload's GO= header tag): reported as
   * submitted, never predicted, and they inform its prior as a reference protein's own terms do.
   */
  known_go_ids?: readonly string[] | null;
}

/** Submitted known terms of a homology batch (GO= at upload): queries, ids, and ids no live term has. */
export interface SubmittedKnown {
  queries: number;
  ids: number;
  unknown: number;
  unknownSample: string[];
  /** Queries whose listed terms informed no aspect's prior (no reference protein matched on them). */
  unmatched: number;
}

/** One (query, term) of the homology path; `ref` is null for a term scored by the prior alone. */
export interface HomologyTerm {
  query: HomologyQuery;
  ref: { accession: string; sequenceId: number } | null;
  term: TransferredTerm;
  score: number;
  features: Record<string, unknown>;
  selfHit: boolean;
}

/**
 * Default GO transfer (docs/prediction.md, "Homology search and score"): DIAMOND blastp of the
 * queries against the reference pool's sequences, then per aspect the blend of bitscore-weighted
 * votes and the term prior (`blendTerms`, the shipped model). A query without a hit gets the prior.
 */
export async function homologyTransfer(input: {
  repos: Repositories;
  pool: HomologyPoolSettings;
  annotationSetId: string;
  ontologySnapshotId: string;
  donorEvidence: 'all' | 'experimental';
  excludeSelf: boolean;
  queries: HomologyQuery[];
  model: BlendModel;
  threads?: number;
  /**
   * DIAMOND's `--block-size` (null: chosen from the memory the worker leaves it, `diamondBlockSize`)
   * and `--index-chunks` (`SVC_DIAMOND_BLOCK_SIZE`, `SVC_DIAMOND_INDEX_CHUNKS`).
   */
  blockSize?: number | null;
  indexChunks?: number;
  /**
   * The queries' hits, already searched (`searchHomologsAhead`), by `homologyQueryId` of the query's
   * position: no DIAMOND run here.
   */
  hits?: ReadonlyMap<string, HomologyHit[]>;
  /** Stops the search (a cancel or a shutdown). */
  signal?: AbortSignal;
}): Promise<{
  terms: HomologyTerm[];
  summaries: QuerySummary[];
  queriesWithoutSequence: number;
  /** The set's prior and the weight of every (query, aspect) scored on it (not an informed prior). */
  composition: PriorComposition;
  /** What became of the submitted known terms (counted here for the batch to report). */
  submitted: SubmittedKnown;
}> {
  // DIAMOND's refusal of the references (formatting the pool) or of the queries fails the job with a
  // stable code; the batch step and the dataset export both come through here.
  const pool = await withSearchJobErrors(homologyPool(input.repos, input.pool, poolKeyOf(input)));
  const searchable = await searchableQueries(input.repos, input.queries);
  const hitsById =
    input.hits ??
    (await withSearchJobErrors(
      diamondSearch({
        binary: input.pool.binary,
        database: pool.database,
        queries: searchable.map((q) => ({ id: q.id, sequence: q.sequence })),
        options: searchOptionsOf(input),
        ...(input.signal !== undefined ? { signal: input.signal } : {}),
      }),
    ));
  const terms: HomologyTerm[] = [];
  // A query without a sequence has no homolog either: every query gets a summary.
  const summaries = new Map<string, QuerySummary>(
    input.queries.map((q) => [
      q.accession,
      { accession: q.accession, homologs: 0, best_identity: null, known_terms: 0 },
    ]),
  );
  const association = input.model.association;
  const weights: PriorWeight[] = [];
  // Scoring a batch of thousands of queries against a Swiss-Prot pool takes minutes of CPU: the loop
  // gives way to the event loop as it goes.
  const pause = eventLoopPause();
  const submittedCount: SubmittedKnown = { queries: 0, ids: 0, unknown: 0, unknownSample: [], unmatched: 0 };
  for (const { query, id } of searchable) {
    await pause();
    const { hits, selves } = keptHits(pool, query, hitsById.get(id) ?? [], input.excludeSelf);
    const submitted = submittedOf(pool, query, submittedCount);
    // What is already known of the query (a reference protein's own annotations, never a vote for
    // itself, and the terms its submitter lists) informs its prior; an unknown query keeps the plain
    // prior.
    const informed =
      association === undefined
        ? null
        : await informedPriors(pool, association, query, submitted, input.pool.memoryFraction, pause);
    // Listed terms that match no reference protein (each carried by none, or by too many to tell
    // proteins apart: the association's max_posting) leave the prior as it was: counted, not silent.
    if (submitted !== null && (informed === null || Object.keys(informed).length === 0))
      submittedCount.unmatched += 1;
    let known = 0;
    for (const aspect of ['F', 'P', 'C'] as const) {
      // Self-transfer: the query's own annotations are known, reported apart and not predicted; so
      // are the terms its submitter lists (and the ancestors they imply).
      const own = knownTerms(pool, query, selves, aspect);
      const ownIds = new Set(own.map((t) => t.term.goId));
      const given = submittedRows(query, aspect, submitted?.get(aspect), ownIds);
      for (const t of given) ownIds.add(t.term.goId);
      // Submitted terms are the submitter's, not the reference's: they do not make the basis `known`.
      known += own.length;
      const scored = aspectTerms(pool, query, hits, aspect, input.model, informed?.[aspect]);
      terms.push(...own, ...given, ...scored.terms.filter((t) => !ownIds.has(t.term.goId)));
      weights.push({
        accession: query.accession,
        aspect,
        weight: scored.weight,
        associationWeight: informed?.[aspect]?.weight ?? 0,
      });
    }
    summaries.set(query.accession, {
      accession: query.accession,
      homologs: hits.length,
      best_identity: hits.length === 0 ? null : Math.max(...hits.map((h) => h.identity)),
      known_terms: known,
    });
  }
  return {
    terms,
    summaries: [...summaries.values()],
    queriesWithoutSequence: input.queries.length - searchable.length,
    composition: { prior: setPriorFor(pool, input.model), weights },
    submitted: submittedCount,
  };
}

/** Unknown submitted ids a batch names in its event, at most. */
const UNKNOWN_SAMPLE = 5;

/**
 * The query's submitted known terms in the pool's ontology, per aspect and propagated; null without
 * any. Counts them, and the ids the ontology does not hold, into `count`.
 */
function submittedOf(
  pool: HomologyPool,
  query: HomologyQuery,
  count: SubmittedKnown,
): ReadonlyMap<GoAspect, ReadonlyMap<string, SubmittedTerm>> | null {
  const ids = query.known_go_ids;
  if (ids === undefined || ids === null || ids.length === 0) return null;
  const { terms, unknown } = pool.submittedTerms(ids);
  count.queries += 1;
  count.ids += ids.length;
  count.unknown += unknown.length;
  for (const goId of unknown) {
    if (count.unknownSample.length < UNKNOWN_SAMPLE && !count.unknownSample.includes(goId))
      count.unknownSample.push(goId);
  }
  return terms.size === 0 ? null : terms;
}

/**
 * A term reported as known, not predicted (distance 0): from the query's own annotation in the
 * reference (`donor`, the reference protein that is the query, one vote), or from its submitter
 * (`donor` null: no donor, no vote).
 */
function knownTerm(
  term: Pick<TransferredTerm, 'goTermId' | 'goId' | 'aspect' | 'viaDescendant'>,
  donor: Pick<TransferredTerm, 'refIndex' | 'qualifier' | 'evidenceCode' | 'refAnnotationDensity'> | null,
): TransferredTerm {
  return {
    ...term,
    distance: 0,
    refIndex: donor?.refIndex ?? -1,
    qualifier: donor?.qualifier ?? null,
    evidenceCode: donor?.evidenceCode ?? '',
    kPosition: 0,
    voteCount: donor === null ? 0 : 1,
    neighbourVoteFraction: donor === null ? 0 : 1,
    neighbourDistanceStd: 0,
    refAnnotationDensity: donor?.refAnnotationDensity ?? 0,
    goTermFrequency: null,
    minDistance: 0,
    meanDistance: 0,
  };
}

/**
 * Rows of the terms a submitter says are known of a query (and the ancestors they imply): score 1, no
 * donor, `source: "submitted"`; none the reference already reports as the query's own.
 */
function submittedRows(
  query: HomologyQuery,
  aspect: GoAspect,
  submitted: ReadonlyMap<string, SubmittedTerm> | undefined,
  own: ReadonlySet<string>,
): HomologyTerm[] {
  if (submitted === undefined) return [];
  const out: HomologyTerm[] = [];
  for (const t of submitted.values()) {
    if (own.has(t.goId)) continue;
    const term = knownTerm({ goTermId: t.goTermId, goId: t.goId, aspect, viaDescendant: !t.direct }, null);
    out.push({
      query,
      ref: null,
      term,
      score: 1,
      features: { source: 'submitted', ...(t.direct ? {} : { via_descendant: true }) },
      selfHit: false,
    });
  }
  return out;
}

/** DIAMOND's name of the query at position `i` of a batch (never its accession, which is free text). */
export const homologyQueryId = (i: number): string => `q${i}`;

/** DIAMOND's name of query `id` (`homologyQueryId`) of batch `batch` in a search-ahead run. */
export const aheadQueryId = (batch: number, id: string): string => `b${batch}${id}`;

/**
 * A search-ahead hit line as its batch's own: the batch, and the line with the query named as the
 * batch names it. Null for a line that is not a hit of ours.
 */
export function splitAheadLine(line: string): { batch: number; line: string } | null {
  const match = /^b(\d+)(q\d+\t)/.exec(line);
  if (match === null) return null;
  return { batch: Number(match[1]), line: line.slice(match[0].length - match[2]!.length) };
}

interface SearchSettings {
  annotationSetId: string;
  ontologySnapshotId: string;
  donorEvidence: 'all' | 'experimental';
  threads?: number;
  blockSize?: number | null;
  indexChunks?: number;
}

function poolKeyOf(input: SearchSettings): HomologyPoolKey {
  return {
    annotationSetId: input.annotationSetId,
    ontologySnapshotId: input.ontologySnapshotId,
    donorEvidence: input.donorEvidence,
  };
}

function searchOptionsOf(input: SearchSettings): Partial<DiamondSearchOptions> {
  return {
    maxTargetSeqs: HOMOLOGY_HITS + HOMOLOGY_SELF_MARGIN,
    ...(input.threads !== undefined ? { threads: input.threads } : {}),
    ...(input.blockSize !== undefined && input.blockSize !== null ? { blockSize: input.blockSize } : {}),
    ...(input.indexChunks !== undefined ? { indexChunks: input.indexChunks } : {}),
  };
}

/** The queries that have a sequence, each named by its position in the batch. */
async function searchableQueries(
  repos: Repositories,
  queries: readonly HomologyQuery[],
): Promise<{ query: HomologyQuery; id: string; sequence: string }[]> {
  const sequences = await repos.referencePools.sequences(queries.map((q) => q.sequence_id));
  return queries
    .map((query, i) => ({ query, id: homologyQueryId(i), sequence: sequences.get(query.sequence_id) ?? '' }))
    .filter((q) => q.sequence.length > 0);
}

/**
 * One DIAMOND run over several batches' queries (docs/scaling.md, "One search per job"): on a
 * Swiss-Prot reference a run costs about 100 s before its first query, so a proteome searched batch by
 * batch pays it once per batch. Answers each batch's tabular hits, its queries named as
 * `homologyTransfer` names them (`homologyQueryId` of the position in the batch), for that batch to
 * score without searching again (`hitsOfText`). The hits pass through `workDir` as DIAMOND writes
 * them and are split line by line, never held as objects.
 */
export async function searchHomologsAhead(
  input: SearchSettings & {
    repos: Repositories;
    pool: HomologyPoolSettings;
    batches: readonly (readonly HomologyQuery[])[];
    workDir: string;
    signal?: AbortSignal;
  },
): Promise<{ hits: string[]; queries: number; lines: number }> {
  const pool = await withSearchJobErrors(homologyPool(input.repos, input.pool, poolKeyOf(input)));
  const records: { id: string; sequence: string }[] = [];
  for (const [b, batch] of input.batches.entries())
    for (const q of await searchableQueries(input.repos, batch))
      records.push({ id: aheadQueryId(b, q.id), sequence: q.sequence });
  const lines: string[][] = input.batches.map(() => []);
  const out = join(input.workDir, `ahead-${process.pid}-${Math.random().toString(36).slice(2)}.tsv`);
  let count = 0;
  try {
    await withSearchJobErrors(
      diamondSearchToFile({
        binary: input.pool.binary,
        database: pool.database,
        queries: records,
        out,
        workDir: input.workDir,
        options: searchOptionsOf(input),
        ...(input.signal !== undefined ? { signal: input.signal } : {}),
      }),
    );
    const reader = createInterface({ input: createReadStream(out, 'utf8'), crlfDelay: Infinity });
    for await (const line of reader) {
      const split = splitAheadLine(line);
      const batch = split === null ? undefined : lines[split.batch];
      if (batch === undefined) continue;
      batch.push(split!.line);
      count++;
    }
  } finally {
    await rm(out, { force: true });
  }
  return {
    hits: lines.map((l) => (l.length === 0 ? '' : `${l.join('\n')}\n`)),
    queries: records.length,
    lines: count,
  };
}

/** One set prior per pool and model (worked out on the pool's first batch, kept while the pool is). */
const setPriors = new WeakMap<HomologyPool, WeakMap<BlendModel, SetPrior>>();

function setPriorFor(pool: HomologyPool, model: BlendModel): SetPrior {
  let byModel = setPriors.get(pool);
  if (byModel === undefined) setPriors.set(pool, (byModel = new WeakMap()));
  let prior = byModel.get(model);
  if (prior === undefined) {
    prior = setPriorOf(pool.priors, model, (goId) => pool.goTermIdOf(goId));
    byModel.set(model, prior);
  }
  return prior;
}

/** A known query's prior in one aspect, informed by association with this weight. */
interface InformedPrior {
  prior: TermPrior;
  association: ReadonlyMap<string, number>;
  weight: number;
}

interface PoolHit extends HomologyHit {
  index: number;
  selfHit: boolean;
}

/**
 * The query's hits as pool proteins, best bitscore first, and apart from them the query itself: its
 * own accession, an isoform of it, or (when self-transfer is on) a protein of the same sequence.
 * Excluded, the query itself is dropped; with self-transfer it is the source of its known terms, never
 * a homolog voting for predicted ones.
 */
function keptHits(
  pool: HomologyPool,
  query: HomologyQuery,
  hits: HomologyHit[],
  excludeSelf: boolean,
): { hits: PoolHit[]; selves: PoolHit[] } {
  const queryCanonical = splitIsoform(query.accession).canonicalAccession;
  const out: PoolHit[] = [];
  const selves: PoolHit[] = [];
  for (const hit of hits) {
    const index = Number(hit.reference.slice(1));
    const protein = pool.protein(index);
    if (protein === undefined || referenceId(index) !== hit.reference) continue;
    const selfHit = isSelfHit({
      queryAccession: query.accession,
      queryCanonical,
      accession: protein.accession,
      canonical: protein.canonicalAccession,
    });
    if (selfHit && excludeSelf) continue;
    const pooled = { ...hit, reference: protein.accession, index, selfHit };
    if (!excludeSelf && (selfHit || protein.sequenceId === query.sequence_id)) {
      selves.push({ ...pooled, selfHit: true });
      continue;
    }
    if (out.length < HOMOLOGY_HITS) out.push(pooled);
  }
  return { hits: out, selves };
}

/**
 * The query's own terms in an aspect, from the reference proteins that are the query itself: every
 * term they carry (their annotations and the ancestors these imply), each once, score 1 (known),
 * with the evidence code of the annotation it rests on.
 */
function knownTerms(
  pool: HomologyPool,
  query: HomologyQuery,
  selves: PoolHit[],
  aspect: GoAspect,
): HomologyTerm[] {
  const out = new Map<string, HomologyTerm>();
  for (const self of selves) {
    const carried = pool.terms(self.index, aspect);
    if (carried === undefined) continue;
    for (const t of carried.values()) {
      if (out.has(t.goId)) continue;
      const term = knownTerm(
        { goTermId: t.goTermId, goId: t.goId, aspect, viaDescendant: t.direct === null },
        {
          refIndex: self.index,
          qualifier: t.direct?.qualifier ?? null,
          evidenceCode: t.via.evidenceCode,
          refAnnotationDensity: pool.directCount(self.index, aspect),
        },
      );
      out.set(t.goId, {
        query,
        ref: { accession: self.reference, sequenceId: pool.protein(self.index)!.sequenceId },
        term,
        score: 1,
        features: {
          source: 'known',
          evidence_code: t.via.evidenceCode,
          ...(t.direct === null ? { via_descendant: true } : {}),
        },
        selfHit: true,
      });
    }
  }
  return [...out.values()];
}

function aspectTerms(
  pool: HomologyPool,
  query: HomologyQuery,
  hits: PoolHit[],
  aspect: GoAspect,
  model: BlendModel,
  informed: InformedPrior | undefined,
): { terms: HomologyTerm[]; weight: number } {
  const inAspect = hits.filter((h) => pool.hasTerms(h.index, aspect));
  const indexOf = new Map(inAspect.map((h) => [h.reference, h.index]));
  const termIdsOf = (accession: string): string[] | undefined => {
    const index = indexOf.get(accession);
    const terms = index === undefined ? undefined : pool.terms(index, aspect);
    return terms === undefined ? undefined : [...terms.keys()];
  };
  const prior = pool.priors[aspect];
  const weight = blendWeight({ hits: inAspect, termsOf: termIdsOf, params: model.aspects[aspect] });
  const blended = blendTerms({
    hits: inAspect,
    termsOf: termIdsOf,
    prior: informed?.prior ?? prior,
    params: model.aspects[aspect],
    minScore: model.min_score,
    specificity: prior,
    ancestorsOf: (goId) => pool.ancestorsOf(goId),
  });
  const rankOf = new Map(inAspect.map((h, i) => [h.reference, i + 1]));
  const hitOf = new Map(inAspect.map((h) => [h.reference, h]));
  const terms = blended.map((t): HomologyTerm => {
    const donor = t.donor === null ? null : (hitOf.get(t.donor.reference) ?? null);
    const poolTerm = donor === null ? null : (pool.terms(donor.index, aspect)?.get(t.goId) ?? null);
    // The plain prior of the term (the informed one is the blend's input, named apart below).
    const plain = prior.frequency.get(t.goId) ?? 0;
    const frequency = Math.round(plain * prior.proteins);
    const associated = informed?.association.get(t.goId);
    const distance = donor === null ? 1 : 1 - donor.identity;
    const term: TransferredTerm = {
      goTermId: poolTerm?.goTermId ?? pool.goTermIdOf(t.goId)!,
      goId: t.goId,
      aspect,
      distance,
      refIndex: donor?.index ?? -1,
      qualifier: poolTerm?.direct?.qualifier ?? null,
      evidenceCode: poolTerm?.via.evidenceCode ?? '',
      kPosition: donor === null ? 0 : (rankOf.get(donor.reference) ?? 0),
      voteCount: t.votes,
      neighbourVoteFraction: inAspect.length > 0 ? t.votes / inAspect.length : 0,
      neighbourDistanceStd: 0,
      refAnnotationDensity: donor === null ? 0 : pool.directCount(donor.index, aspect),
      goTermFrequency: frequency,
      minDistance: distance,
      meanDistance: distance,
      viaDescendant: poolTerm !== null && poolTerm.direct === null,
    };
    return {
      query,
      ref:
        donor === null
          ? null
          : { accession: donor.reference, sequenceId: pool.protein(donor.index)!.sequenceId },
      term,
      score: t.score,
      features: {
        source: donor === null ? 'prior' : 'homology',
        vote_share: t.voteShare,
        prior: plain,
        ...(associated !== undefined ? { association: associated } : {}),
        ...(t.liftedFrom !== undefined ? { score_of_descendant: t.liftedFrom } : {}),
        ...(donor !== null
          ? { identity: donor.identity, bitscore: donor.bitscore, evalue: donor.evalue }
          : {}),
        ...(term.viaDescendant ? { via_descendant: true } : {}),
      },
      selfHit: donor?.selfHit === true,
    };
  });
  return { terms, weight };
}

/** One association index per pool (built on its first query, kept while the pool is). */
const associationIndexes = new WeakMap<HomologyPool, Promise<AssociationIndex>>();

function associationIndexOf(
  pool: HomologyPool,
  model: AssociationModel,
  memoryFraction: number,
  pause: () => Promise<void>,
): Promise<AssociationIndex> {
  let index = associationIndexes.get(pool);
  if (index === undefined) {
    const options = { maxPosting: model.max_posting, neighbours: model.neighbours };
    // Refused before it is built when it cannot fit beside the pool: the job fails with a code
    // instead of the process running out of heap.
    checkAssociationFits(
      { proteins: pool.size, ...associationIndexBytes(pool.size, pool.priors, options) },
      memoryFraction,
    );
    index = AssociationIndex.build(
      {
        size: pool.size,
        accession: (i) => pool.protein(i)?.accession ?? '',
        terms: (i, aspect) => (pool.hasTerms(i, aspect) ? pool.terms(i, aspect)?.keys() : undefined),
        priors: pool.priors,
        // One accession map per pool, shared with the lookup of known queries.
        find: (accession) => accessionMapOf(pool).get(accession),
      },
      options,
      pause,
    );
    associationIndexes.set(pool, index);
    // A build that failed is tried again by the next query rather than kept.
    index.catch(() => associationIndexes.delete(pool));
  }
  return index;
}

/** A pool's proteins by accession (built once per pool, kept while the pool is). */
const accessionIndexes = new WeakMap<HomologyPool, Map<string, number>>();

function accessionMapOf(pool: HomologyPool): Map<string, number> {
  let byAccession = accessionIndexes.get(pool);
  if (byAccession === undefined) {
    byAccession = new Map();
    for (let i = 0; i < pool.size; i++) {
      const protein = pool.protein(i);
      if (protein !== undefined) byAccession.set(protein.accession, i);
    }
    accessionIndexes.set(pool, byAccession);
  }
  return byAccession;
}

function poolIndexOf(pool: HomologyPool, accession: string): number | undefined {
  const byAccession = accessionMapOf(pool);
  return byAccession.get(accession) ?? byAccession.get(splitIsoform(accession).canonicalAccession);
}

/**
 * Per aspect, the query's prior informed by its known terms (`informedPrior`) and the association
 * behind it: a reference protein's own terms (by accession, or its canonical accession) and the terms
 * its submitter lists, together. Null when nothing is known of the query. The association index is
 * built on the pool's first known query: a run of new proteins without known terms never pays for it.
 */
async function informedPriors(
  pool: HomologyPool,
  model: AssociationModel,
  query: HomologyQuery,
  submitted: ReadonlyMap<GoAspect, ReadonlyMap<string, SubmittedTerm>> | null,
  memoryFraction: number,
  pause: () => Promise<void>,
): Promise<Partial<Record<GoAspect, InformedPrior>> | null> {
  const self = poolIndexOf(pool, query.accession);
  if (self === undefined && submitted === null) return null;
  const index = await associationIndexOf(pool, model, memoryFraction, pause);
  const knownIn = (aspect: GoAspect): string[] => {
    const own = self === undefined ? [] : [...(pool.terms(self, aspect)?.keys() ?? [])];
    const given = submitted?.get(aspect);
    return given === undefined ? own : [...new Set([...own, ...given.keys()])];
  };
  const known = { F: knownIn('F'), P: knownIn('P'), C: knownIn('C') };
  // The query never votes for itself: a reference protein is left out of its own neighbours.
  const scores = index.scores(known, self === undefined ? null : pool.protein(self)!.accession);
  const out: Partial<Record<GoAspect, InformedPrior>> = {};
  for (const aspect of ['F', 'P', 'C'] as const) {
    const association = scores[aspect];
    const weight = model.weights[known[aspect].length > 0 ? 'PK' : 'LK'][aspect];
    if (association === undefined || weight <= 0) continue;
    out[aspect] = { prior: informedPrior(pool.priors[aspect], association, weight), association, weight };
  }
  return out;
}
