import { batchKey } from './batch-key';

describe('batchKey', () => {
  it('is the same for the same batch and differs between batches', () => {
    expect(batchKey([1, 2, 3])).toBe(batchKey([1, 2, 3]));
    expect(batchKey([1, 2, 3])).not.toBe(batchKey([4, 5, 6]));
    expect(batchKey([1, 2, 3])).not.toBe(batchKey([1, 2]));
    expect(batchKey(['P12345', 'Q9'])).not.toBe(batchKey(['P12345Q9']));
  });

  it('fits the write payloads (at most 100 characters, URL-safe)', () => {
    const key = batchKey(Array.from({ length: 5000 }, (_, i) => i));
    expect(key.length).toBeLessThanOrEqual(100);
    expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});
