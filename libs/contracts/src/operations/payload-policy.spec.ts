import {
  fetchUniprotMetadataPolicy,
  OperationLimits,
  pingPolicy,
  uniprotFetchBounds,
  wholePoolPolicy,
} from './payload-policy';

const limits: OperationLimits = {
  pingMaxSleepSeconds: 5,
  uniprotMaxRows: { researcher: 1000, operator: 1_000_000 },
  uniprotMaxPages: { researcher: 5, operator: 10_000 },
};
const researcher = { staff: false, limits };
const staff = { staff: true, limits };

describe('pingPolicy', () => {
  it('lets a researcher sleep up to the cap, no longer, and never fail on purpose', () => {
    expect(pingPolicy({ message: 'x' }, researcher)).toBeNull();
    expect(pingPolicy({ sleep_seconds: 5 }, researcher)).toBeNull();
    expect(pingPolicy({ sleep_seconds: 5.5 }, researcher)).toEqual({
      kind: 'over_limit',
      field: 'sleep_seconds',
      message: 'sleep_seconds may be at most 5 below role operator (operators up to 3600)',
    });
    expect(pingPolicy({ fail: true }, researcher)).toMatchObject({ kind: 'forbidden', field: 'fail' });
    expect(pingPolicy({ fail: false }, researcher)).toBeNull();
  });

  it('leaves staff the whole probe', () => {
    expect(pingPolicy({ sleep_seconds: 3600, fail: true }, staff)).toBeNull();
  });
});

describe('fetchUniprotMetadataPolicy', () => {
  it('keeps update_protein_core for staff', () => {
    const payload = { search_criteria: '*', update_protein_core: true };
    expect(fetchUniprotMetadataPolicy(payload, researcher)).toMatchObject({
      kind: 'forbidden',
      field: 'update_protein_core',
    });
    expect(fetchUniprotMetadataPolicy(payload, staff)).toBeNull();
    expect(fetchUniprotMetadataPolicy({ ...payload, update_protein_core: false }, researcher)).toBeNull();
  });

  it('refuses max_pages over the page cap and max_pages x page_size over the row cap of the role', () => {
    const search = { search_criteria: '*' };
    expect(fetchUniprotMetadataPolicy(search, researcher)).toBeNull();
    expect(fetchUniprotMetadataPolicy({ ...search, max_pages: 2 }, researcher)).toBeNull();
    expect(fetchUniprotMetadataPolicy({ ...search, max_pages: 3 }, researcher)).toEqual({
      kind: 'over_limit',
      field: 'max_pages',
      message: 'max_pages x page_size (1500 rows) may be at most 1000 rows for researchers',
    });
    expect(fetchUniprotMetadataPolicy({ ...search, max_pages: 5, page_size: 200 }, researcher)).toBeNull();
    expect(fetchUniprotMetadataPolicy({ ...search, max_pages: 6, page_size: 10 }, researcher)).toEqual({
      kind: 'over_limit',
      field: 'max_pages',
      message: 'max_pages may be at most 5 for researchers',
    });
    expect(fetchUniprotMetadataPolicy({ ...search, max_pages: 3 }, staff)).toBeNull();
    expect(fetchUniprotMetadataPolicy({ ...search, max_pages: 10_001 }, staff)).toMatchObject({
      field: 'max_pages',
      message: 'max_pages may be at most 10000 for operators',
    });
  });
});

describe('uniprotFetchBounds', () => {
  it("is the role's caps without max_pages, and max_pages (in pages and rows) within them otherwise", () => {
    expect(uniprotFetchBounds({}, researcher)).toEqual({ pageSize: 500, maxRows: 1000, maxPages: 5 });
    expect(uniprotFetchBounds({ page_size: 10 }, staff)).toEqual({
      pageSize: 10,
      maxRows: 1_000_000,
      maxPages: 10_000,
    });
    expect(uniprotFetchBounds({ page_size: 100, max_pages: 3 }, researcher)).toEqual({
      pageSize: 100,
      maxRows: 300,
      maxPages: 3,
    });
    // A stored payload over the caps (checked again by the worker) is still held to them.
    expect(uniprotFetchBounds({ page_size: 500, max_pages: 100 }, researcher)).toEqual({
      pageSize: 500,
      maxRows: 1000,
      maxPages: 5,
    });
  });
});

describe('wholePoolPolicy', () => {
  it('lets anyone work on a named query set and staff on the whole pool', () => {
    expect(wholePoolPolicy({ query_set_id: '0b9f7c1e-3f5d-4a0e-9a55-1d2f0c3b4a5e' }, researcher)).toBeNull();
    expect(wholePoolPolicy({}, staff)).toBeNull();
  });

  it('refuses the whole pool to everyone else, naming query_set_id', () => {
    expect(wholePoolPolicy({}, researcher)).toMatchObject({ kind: 'forbidden', field: 'query_set_id' });
  });
});
