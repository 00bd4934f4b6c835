import { predictionSetLabel, searchMethodLabel } from './prediction-set-label';

const diamond = {
  query_set_name: 'human20',
  search_backend: 'diamond',
  blend_version: 'homology-blend-v1',
  embedding_config_name: 'kmer-v1',
  reference: 'human-experimental',
  exclude_self: false,
  created_at: '2026-11-29T12:03:41.512Z',
};

describe('predictionSetLabel', () => {
  it('names the query set, the method, the reference, the self-hit rule and the minute', () => {
    expect(predictionSetLabel(diamond)).toBe(
      'human20 · DIAMOND, homology-blend-v1 · human-experimental · self-hits kept · 2026-11-29 12:03',
    );
  });

  it('tells two runs of the same input apart by their settings', () => {
    const other = predictionSetLabel({ ...diamond, exclude_self: true });
    expect(other).toContain('self-hits excluded');
    expect(other).not.toBe(predictionSetLabel(diamond));
  });

  it('names the embedding only for an embedding backend, and every protein when there is no query set', () => {
    expect(searchMethodLabel(diamond)).toBe('DIAMOND, homology-blend-v1');
    expect(searchMethodLabel({ ...diamond, search_backend: 'numpy' })).toBe(
      'embedding kNN (exact) over kmer-v1',
    );
    expect(
      predictionSetLabel({ ...diamond, query_set_name: null, reference: null, blend_version: null }),
    ).toBe('all proteins · DIAMOND · self-hits kept · 2026-11-29 12:03');
  });

  it('keeps a date it cannot read as it came', () => {
    expect(predictionSetLabel({ ...diamond, created_at: 'yesterday' })).toMatch(/ · yesterday$/);
  });
});
