import { acceptedEvidence } from './evidence-codes';
import type { HoldoutAnnotation, HoldoutDelta } from './holdout-delta';

/** An annotation with the gene it was made for (GAF column 3, DB Object Symbol; or an Entrez id). */
export interface GeneAnnotation extends HoldoutAnnotation {
  gene: string | null;
}

/**
 * Gene-level carry-over: NK proteins whose gene already had experimental terms at t0 under another
 * accession. Their "new" knowledge was known for the gene, so a benchmark that counts them rewards
 * looking the gene up, not predicting. Genes of a protein are taken from both annotation sets.
 */
export function geneCarryOver(input: {
  nkProteins: Iterable<string>;
  old: Iterable<GeneAnnotation>;
  new: Iterable<GeneAnnotation>;
  includeExtendedEvidence?: boolean;
}): Set<string> {
  const accepted = acceptedEvidence(input.includeExtendedEvidence ?? false);
  const genesOf = new Map<string, Set<string>>();
  const experimentalByGene = new Map<string, Set<string>>();
  const remember = (a: GeneAnnotation): string | null => {
    const gene = a.gene?.trim() ?? '';
    if (gene === '') return null;
    let genes = genesOf.get(a.protein);
    if (genes === undefined) genesOf.set(a.protein, (genes = new Set()));
    genes.add(gene);
    return gene;
  };
  for (const a of input.old) {
    const gene = remember(a);
    if (gene === null || !accepted.has(a.evidence.trim().toUpperCase()) || a.isNot === true) continue;
    let proteins = experimentalByGene.get(gene);
    if (proteins === undefined) experimentalByGene.set(gene, (proteins = new Set()));
    proteins.add(a.protein);
  }
  for (const a of input.new) remember(a);
  const carried = new Set<string>();
  for (const protein of input.nkProteins) {
    for (const gene of genesOf.get(protein) ?? []) {
      if ([...(experimentalByGene.get(gene) ?? [])].some((other) => other !== protein)) carried.add(protein);
    }
  }
  return carried;
}

/** The delta without the given NK proteins; the NK and delta counts follow. */
export function withoutNkProteins(delta: HoldoutDelta, excluded: ReadonlySet<string>): HoldoutDelta {
  if (excluded.size === 0) return delta;
  const nk = delta.groundTruth.NK.filter((t) => !excluded.has(t.protein));
  const removedRows = delta.groundTruth.NK.length - nk.length;
  const removedProteins = new Set(
    delta.groundTruth.NK.filter((t) => excluded.has(t.protein)).map((t) => t.protein),
  );
  return {
    groundTruth: { ...delta.groundTruth, NK: nk },
    known: delta.known,
    stats: {
      ...delta.stats,
      nk_proteins: delta.stats.nk_proteins - removedProteins.size,
      nk_annotations: nk.length,
      // An NK protein has no other category, so it leaves the delta too.
      delta_proteins: delta.stats.delta_proteins - removedProteins.size,
      delta_annotations: delta.stats.delta_annotations - removedRows,
    },
  };
}
