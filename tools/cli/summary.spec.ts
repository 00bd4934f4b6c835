import { provenanceWarnings, type ReferenceSummary } from '@svc/domain';
import { coverageLine, referenceLines, searchPhase, submittedLines, warningLines } from './summary';

const REFERENCE: ReferenceSummary = {
  reference_name: 'human',
  ontology_snapshot_id: 's',
  ontology_version: 'releases/2022-07-01',
  annotation_set_id: 'a',
  annotation_set_label: 'goa gene2go-2022-09-12',
  annotation_source_version: 'gene2go-2022-09-12',
  donor_evidence: 'experimental',
  donor_proteins: 15398,
  donor_proteins_per_aspect: { F: 11204, P: 12890, C: 13012 },
  donor_species: [{ taxon: 'taxon:9606', proteins: 15398 }],
  search_backend: 'diamond',
  blend_version: 'homology-blend-v1',
  blend_donor_evidence: 'experimental',
  self_transfer: true,
};

describe('svc annotate summary lines', () => {
  it('name the reference, its donors per aspect and the search', () => {
    expect(referenceLines(REFERENCE)).toEqual([
      'reference: human — GO releases/2022-07-01; annotations goa gene2go-2022-09-12',
      '  donors: 15398 proteins (MF 11204, BP 12890, CC 13012; experimental evidence); species taxon:9606 15398',
      "  search: diamond, blend homology-blend-v1; a reference protein's own annotations come back as known",
    ]);
  });

  it('say when the donors are not those the blend was calibrated with, and print that warning', () => {
    const all: ReferenceSummary = { ...REFERENCE, donor_evidence: 'all' };
    expect(referenceLines(all).slice(1)).toEqual([
      '  donors: 15398 proteins (MF 11204, BP 12890, CC 13012; all evidence, electronic included); species taxon:9606 15398',
      "  search: diamond, blend homology-blend-v1 (calibrated with experimental evidence donors, not these); a reference protein's own annotations come back as known",
    ]);
    expect(warningLines(provenanceWarnings(all, null))).toEqual([
      expect.stringMatching(
        /^warning: This run transfers annotations of every evidence code, electronic \(IEA\) included, but the scores of homology-blend-v1 were calibrated/,
      ),
    ]);
  });

  it('count the proteins by what backs them, and prefix warnings', () => {
    expect(
      coverageLine({
        queries: 20,
        with_homolog: 18,
        without_homolog: 2,
        without_homolog_share: 0.1,
        known: 3,
      }),
    ).toBe('proteins: 20 — 15 with homology, 3 known (reference proteins), 2 on the prior alone (10 %)');
    expect(coverageLine(null)).toBe('proteins: coverage not recorded for this set');
    expect(warningLines(['small'])).toEqual(['warning: small']);
    expect(warningLines(undefined)).toEqual([]);
  });
});

describe('searchPhase', () => {
  it('says a search-ahead step is searching, with its number of queries', () => {
    expect(
      searchPhase({ event: 'predict_go_terms_search.started', fields: { batches: 9, queries: 17857 } }),
    ).toBe('searching 17,857 queries with DIAMOND');
    expect(searchPhase({ event: 'predict_go_terms_search.started', fields: {} })).toBe(
      'searching with DIAMOND',
    );
  });

  it('says the search ended and the batches are being scored', () => {
    expect(searchPhase({ event: 'predict_go_terms_search.done', fields: { queries: 17857 } })).toBe(
      'searched; scoring the first batch',
    );
  });

  it('says nothing for any other newest event, or none', () => {
    expect(searchPhase({ event: 'predict_go_terms.planned', fields: { queries: 17857 } })).toBeNull();
    expect(searchPhase(undefined)).toBeNull();
  });
});

describe('submittedLines', () => {
  const batch = (known: Record<string, unknown> | undefined) => ({
    event: 'predict_go_terms_batch.done',
    fields: known === undefined ? { queries: 10 } : { queries: 10, submitted_known: known },
  });

  it('sums the batches: ids and proteins, ids the release lacks (with samples), lists that matched nothing', () => {
    expect(
      submittedLines([
        batch({ queries: 2, ids: 7, unknown_ids: 1, unknown_sample: ['GO:9999999'], queries_unmatched: 1 }),
        { event: 'predict_go_terms.planned', fields: { queries: 20 } },
        batch(undefined),
        batch({
          queries: 1,
          ids: 3,
          unknown_ids: 2,
          unknown_sample: ['GO:9999999', 'GO:8888888'],
          queries_unmatched: 0,
        }),
      ]),
    ).toEqual([
      'known terms: 10 GO ids listed for 3 proteins (GO=); they come back as submitted, not predicted',
      "warning: 3 listed GO ids are not a live term of the run's GO release and were left out (GO:9999999, GO:8888888)",
      'warning: the listed terms of 1 protein matched no reference protein (too generic, or carried by none) and did not change its prediction: list the most specific terms known',
    ]);
  });

  it('says nothing when no protein listed terms, and only the count when all were used', () => {
    expect(submittedLines([batch(undefined)])).toEqual([]);
    expect(submittedLines([])).toEqual([]);
    expect(
      submittedLines([
        batch({ queries: 1, ids: 1, unknown_ids: 0, unknown_sample: [], queries_unmatched: 0 }),
      ]),
    ).toEqual([
      'known terms: 1 GO id listed for 1 protein (GO=); they come back as submitted, not predicted',
    ]);
  });
});
