import { TransferredTerm } from '@svc/domain';
import { EmitFn } from '@svc/jobs';
import { Repositories, PredictionRow } from '@svc/persistence';
import type { TransferSettings } from './transfer-settings';
import { readText, SourcePolicy } from '@svc/platform';
import { loadTermEmbeddings } from './term-embeddings';
import { termCoherence } from '@svc/domain';

const iaCache = new Map<string, Promise<Map<string, number>>>();

/** An IA file: `GO:id<whitespace>value` per line; other lines (headers, blanks) are skipped. */
function loadIa(url: string, sources: SourcePolicy): Promise<Map<string, number>> {
  let entry = iaCache.get(url);
  if (entry === undefined) {
    entry = readText(url, sources).then((text) => {
      const ia = new Map<string, number>();
      for (const line of text.split('\n')) {
        const [term, value] = line.trim().split(/\s+/);
        const number = Number(value);
        if (term !== undefined && /^GO:\d{7}$/.test(term) && Number.isFinite(number)) ia.set(term, number);
      }
      return ia;
    });
    iaCache.set(url, entry);
    entry.catch(() => iaCache.delete(url));
  }
  return entry;
}

/**
 * The optional features: self prior (share of annotated reference proteins carrying the term),
 * association (strongest co-occurrence support from the query's other predicted terms), IA (from
 * the snapshot's IA file) and the v6 feature (coherence of the term with the query's other predicted
 * terms in the term-embedding space; null without a term-embedding file). A feature whose
 * input is missing stays null and the batch says why in one warning event.
 */
export async function addExtraFeatures(input: {
  repos: Repositories;
  set: TransferSettings;
  rows: PredictionRow[];
  pending: TransferredTerm[];
  emit: EmitFn;
  sources: SourcePolicy;
  termEmbeddingPath: string | null;
}): Promise<void> {
  const { repos, set, rows, pending, emit } = input;
  const options = set.options;
  const features = (i: number): Record<string, unknown> => rows[i]!.features as Record<string, unknown>;
  if (options['compute_self_prior'] === true) {
    const n = await repos.annotations.countAnnotatedProteins(set.annotation_set_id);
    pending.forEach(
      (t, i) =>
        (features(i)['self_prior'] = n > 0 && t.goTermFrequency !== null ? t.goTermFrequency / n : null),
    );
  }
  if (options['compute_association'] === true) await addAssociation(input);
  if (options['compute_ia'] === true) {
    const snapshot = await repos.ontologies.findById(set.ontology_snapshot_id);
    if (snapshot?.ia_url == null) {
      await emit(
        'predict_go_terms.ia_missing',
        'the ontology snapshot has no IA file; ia stays empty',
        {},
        'warning',
      );
      pending.forEach((_, i) => (features(i)['ia'] = null));
    } else {
      const ia = await loadIa(snapshot.ia_url, input.sources);
      pending.forEach((t, i) => (features(i)['ia'] = ia.get(t.goId) ?? 0));
    }
  }
  if (options['compute_v6_features'] === true) {
    const file = input.termEmbeddingPath;
    if (file === null) {
      await emit(
        'predict_go_terms.v6_unavailable',
        'v6 features need a term-embedding file (SVC_TERM_EMBEDDING_PATH); they stay empty',
        {},
        'warning',
      );
      pending.forEach((_, i) => (features(i)['term_embedding_similarity'] = null));
    } else {
      const vectors = await loadTermEmbeddings(file, input.sources);
      const similarity = termCoherence(
        rows.map((r) => String(r.protein_accession)),
        pending.map((t) => t.goId),
        vectors,
      );
      pending.forEach((_, i) => (features(i)['term_embedding_similarity'] = similarity[i] ?? null));
    }
  }
}

async function addAssociation(input: Parameters<typeof addExtraFeatures>[0]): Promise<void> {
  const { repos, set, rows, pending, emit } = input;
  const termIds = [...new Set(pending.map((t) => t.goTermId))];
  const { pairs, singles } = await repos.annotations.cooccurrenceOf(set.annotation_set_id, termIds);
  if (singles.length === 0 && termIds.length > 0) {
    await emit(
      'predict_go_terms.cooccurrence_missing',
      'no co-occurrence statistics for this annotation set (run build_go_cooccurrence); association stays empty',
      {},
      'warning',
    );
    rows.forEach((r) => ((r.features as Record<string, unknown>)['association_max'] = null));
    return;
  }
  const pairCount = new Map<string, number>();
  for (const p of pairs) {
    pairCount.set(`${p.a}:${p.b}`, p.n);
    pairCount.set(`${p.b}:${p.a}`, p.n);
  }
  const single = new Map(singles.map((s) => [s.id, s.n]));
  const byQuery = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const key = String(r.protein_accession);
    let list = byQuery.get(key);
    if (list === undefined) byQuery.set(key, (list = []));
    list.push(i);
  });
  for (const indices of byQuery.values()) {
    for (const i of indices) {
      const t = pending[i]!.goTermId;
      let best = 0;
      for (const j of indices) {
        const s = pending[j]!.goTermId;
        if (s === t) continue;
        const together = pairCount.get(`${s}:${t}`) ?? 0;
        const alone = single.get(s) ?? 0;
        if (alone > 0) best = Math.max(best, together / alone);
      }
      (rows[i]!.features as Record<string, unknown>)['association_max'] = best;
    }
  }
}
