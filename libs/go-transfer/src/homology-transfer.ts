import {
  BlendModel,
  blendTerms,
  GoAspect,
  HomologyHit,
  isSelfHit,
  splitIsoform,
  TransferredTerm,
} from '@svc/domain';
import { diamondSearch } from '@svc/inference';
import { Repositories } from '@svc/persistence';
import { HomologyPool, homologyPool, referenceId } from './homology-pool';

/** Hits kept per query after self-exclusion: the homology baseline's `--max-target-seqs 50`. */
export const HOMOLOGY_HITS = 50;
/** Extra hits asked of DIAMOND, so dropping the query itself (and its isoforms) still leaves 50. */
export const HOMOLOGY_SELF_MARGIN = 10;

export interface HomologyQuery {
  accession: string;
  sequence_id: number;
  taxonomy_id?: string | null;
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
  artifactsDir: string;
  annotationSetId: string;
  ontologySnapshotId: string;
  donorEvidence: 'all' | 'experimental';
  excludeSelf: boolean;
  queries: HomologyQuery[];
  model: BlendModel;
  binary: string;
  threads?: number;
}): Promise<{ terms: HomologyTerm[]; queriesWithoutSequence: number }> {
  const pool = await homologyPool(input.repos, input.artifactsDir, input.binary, {
    annotationSetId: input.annotationSetId,
    ontologySnapshotId: input.ontologySnapshotId,
    donorEvidence: input.donorEvidence,
  });
  const sequences = await input.repos.referencePools.sequences(input.queries.map((q) => q.sequence_id));
  const searchable = input.queries
    .map((query, i) => ({ query, id: `q${i}`, sequence: sequences.get(query.sequence_id) ?? '' }))
    .filter((q) => q.sequence.length > 0);
  const hitsById = await diamondSearch({
    binary: input.binary,
    database: pool.database,
    queries: searchable.map((q) => ({ id: q.id, sequence: q.sequence })),
    options: {
      maxTargetSeqs: HOMOLOGY_HITS + HOMOLOGY_SELF_MARGIN,
      ...(input.threads !== undefined ? { threads: input.threads } : {}),
    },
  });
  const terms: HomologyTerm[] = [];
  for (const { query, id } of searchable) {
    const hits = keptHits(pool, query, hitsById.get(id) ?? [], input.excludeSelf);
    for (const aspect of ['F', 'P', 'C'] as const)
      terms.push(...aspectTerms(pool, query, hits, aspect, input.model));
  }
  return { terms, queriesWithoutSequence: input.queries.length - searchable.length };
}

interface PoolHit extends HomologyHit {
  index: number;
  selfHit: boolean;
}

/** The query's hits as pool proteins, best bitscore first, itself and its isoforms out when excluded. */
function keptHits(
  pool: HomologyPool,
  query: HomologyQuery,
  hits: HomologyHit[],
  excludeSelf: boolean,
): PoolHit[] {
  const queryCanonical = splitIsoform(query.accession).canonicalAccession;
  const out: PoolHit[] = [];
  for (const hit of hits) {
    const index = Number(hit.reference.slice(1));
    const protein = pool.proteins[index];
    if (protein === undefined || referenceId(index) !== hit.reference) continue;
    const selfHit = isSelfHit({
      queryAccession: query.accession,
      queryCanonical,
      accession: protein.accession,
      canonical: protein.canonicalAccession,
    });
    if (selfHit && excludeSelf) continue;
    out.push({ ...hit, reference: protein.accession, index, selfHit });
    if (out.length === HOMOLOGY_HITS) break;
  }
  return out;
}

function aspectTerms(
  pool: HomologyPool,
  query: HomologyQuery,
  hits: PoolHit[],
  aspect: GoAspect,
  model: BlendModel,
): HomologyTerm[] {
  const termIds = pool.termIds[aspect];
  const inAspect = hits.filter((h) => termIds.has(h.reference));
  const prior = pool.priors[aspect];
  const blended = blendTerms({
    hits: inAspect,
    termsOf: (accession) => termIds.get(accession),
    prior,
    params: model.aspects[aspect],
    minScore: model.min_score,
  });
  const rankOf = new Map(inAspect.map((h, i) => [h.reference, i + 1]));
  const hitOf = new Map(inAspect.map((h) => [h.reference, h]));
  return blended.map((t) => {
    const donor = t.donor === null ? null : (hitOf.get(t.donor.reference) ?? null);
    const poolTerm = donor === null ? null : (pool.terms[aspect].get(donor.index)?.get(t.goId) ?? null);
    const frequency = Math.round(t.prior * prior.proteins);
    const distance = donor === null ? 1 : 1 - donor.identity;
    const term: TransferredTerm = {
      goTermId: poolTerm?.goTermId ?? pool.goTermIdOf.get(t.goId)!,
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
      refAnnotationDensity: donor === null ? 0 : (pool.directCount[aspect].get(donor.index) ?? 0),
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
          : { accession: donor.reference, sequenceId: pool.proteins[donor.index]!.sequenceId },
      term,
      score: t.score,
      features: {
        source: donor === null ? 'prior' : 'homology',
        vote_share: t.voteShare,
        prior: t.prior,
        ...(donor !== null
          ? { identity: donor.identity, bitscore: donor.bitscore, evalue: donor.evalue }
          : {}),
        ...(term.viaDescendant ? { via_descendant: true } : {}),
      },
      selfHit: donor?.selfHit === true,
    };
  });
}
