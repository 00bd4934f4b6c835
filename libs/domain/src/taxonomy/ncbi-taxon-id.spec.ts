import { MAX_NCBI_TAXON_ID, parseNcbiTaxonId } from './ncbi-taxon-id';

describe('parseNcbiTaxonId', () => {
  it.each([
    ['9606', 9606],
    [' 559292 ', 559292],
    ['1', 1],
    ['09606', 9606],
    [String(MAX_NCBI_TAXON_ID), MAX_NCBI_TAXON_ID],
  ])('%j is taxon %d', (text, id) => {
    expect(parseNcbiTaxonId(text)).toBe(id);
  });

  it.each([
    '',
    ' ',
    '0',
    '-9606',
    '+9606',
    '9606.0',
    '1e4',
    'human',
    'taxon:9606',
    '2147483648',
    '99999999999',
  ])('%j is no taxon id', (text) => {
    expect(parseNcbiTaxonId(text)).toBeNull();
  });
});
