import { parseGafLine } from './gaf-line';
import { predictionGafHeader, predictionGafLine } from './gaf-prediction';

describe('predictionGafLine', () => {
  const base = {
    protein: 'P04637',
    goId: 'GO:0003677',
    aspect: 'F' as const,
    taxonId: '9606',
    donor: 'Q9NP62',
    predictionSetId: '0b9f3f1e-1c1a-4c1e-9f1e-1c1a4c1e9f1e',
    date: '20261125',
  };

  it('is a GAF 2.2 record the service’s own parser reads back', () => {
    const parsed = parseGafLine(predictionGafLine(base), 1);
    expect(parsed.kind).toBe('record');
    if (parsed.kind !== 'record') return;
    expect(parsed.record).toMatchObject({
      db: 'UniProtKB',
      dbObjectId: 'P04637',
      relation: 'enables',
      goId: 'GO:0003677',
      evidenceCode: 'IEA',
      withFrom: 'UniProtKB:Q9NP62',
      aspect: 'F',
      isNot: false,
    });
  });

  it('names the aspect’s relation, an unknown taxon as unidentified, a prior-only term without With/From', () => {
    for (const [aspect, relation] of [
      ['P', 'involved_in'],
      ['C', 'located_in'],
    ] as const) {
      const line = predictionGafLine({ ...base, aspect, taxonId: null, donor: null, protein: 'my query 1' });
      const parsed = parseGafLine(line, 1);
      expect(parsed.kind).toBe('record');
      if (parsed.kind !== 'record') continue;
      expect(parsed.record).toMatchObject({ db: 'SVC', relation, withFrom: null, aspect });
      expect(line.split('\t')[12]).toBe('taxon:32644');
      expect(line.split('\t')).toHaveLength(17);
    }
  });

  it('starts with headers the parser reads as headers', () => {
    const lines = predictionGafHeader({
      predictionSetId: base.predictionSetId,
      generated: '2026-11-25',
      minScore: 0.3,
    });
    expect(parseGafLine(lines[0]!, 1)).toEqual({ kind: 'header', key: 'gaf-version', value: '2.2' });
    for (const line of lines) expect(['header', 'comment']).toContain(parseGafLine(line, 1).kind);
  });
});
