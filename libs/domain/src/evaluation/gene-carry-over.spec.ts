import { type GeneAnnotation, geneCarryOver, withoutNkProteins } from './gene-carry-over';
import type { HoldoutDelta } from './holdout-delta';

const a = (protein: string, gene: string | null, evidence = 'IDA', isNot = false): GeneAnnotation => ({
  protein,
  gene,
  goId: 'GO:0005515',
  evidence,
  isNot,
});

describe('geneCarryOver', () => {
  it('flags an NK accession whose gene had experimental terms at t0 under another accession', () => {
    const carried = geneCarryOver({
      nkProteins: ['P2', 'P4', 'P5', 'P6'],
      old: [
        a('P1', 'TP53'), // P2 is another accession of TP53: carried over
        a('P3', 'BRCA1', 'IEA'), // electronic only: P4 is new knowledge
        a('P7', 'EGFR', 'IDA', true), // a NOT annotation is not knowledge of a function
        a('P6', 'MYC'), // P6's own old terms do not count against it
      ],
      new: [a('P2', 'TP53'), a('P4', 'BRCA1'), a('P5', null), a('P8', 'EGFR'), a('P6', 'MYC')],
    });
    expect([...carried]).toEqual(['P2']);
  });

  it('reads genes from the new set too, and counts extended evidence only when asked', () => {
    const input = {
      nkProteins: ['P2'],
      old: [a('P1', 'KRAS', 'TAS')],
      new: [a('P2', 'KRAS')],
    };
    expect(geneCarryOver(input).size).toBe(0);
    expect([...geneCarryOver({ ...input, includeExtendedEvidence: true })]).toEqual(['P2']);
  });
});

describe('withoutNkProteins', () => {
  it('drops the proteins from NK and the counts', () => {
    const delta: HoldoutDelta = {
      groundTruth: {
        NK: [
          { protein: 'P2', goId: 'GO:1', aspect: 'F' },
          { protein: 'P2', goId: 'GO:2', aspect: 'P' },
          { protein: 'P9', goId: 'GO:1', aspect: 'F' },
        ],
        LK: [],
        PK: [{ protein: 'P1', goId: 'GO:3', aspect: 'C' }],
      },
      known: [],
      stats: {
        delta_proteins: 3,
        delta_annotations: 4,
        nk_proteins: 2,
        nk_annotations: 3,
        lk_proteins: 0,
        lk_annotations: 0,
        pk_proteins: 1,
        pk_annotations: 1,
        known_annotations: 0,
      },
    };
    const out = withoutNkProteins(delta, new Set(['P2']));
    expect(out.groundTruth.NK).toEqual([{ protein: 'P9', goId: 'GO:1', aspect: 'F' }]);
    expect(out.stats).toMatchObject({
      delta_proteins: 2,
      delta_annotations: 2,
      nk_proteins: 1,
      nk_annotations: 1,
    });
  });
});
