import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  afterEach(() => jest.useRealTimers());

  it('shares one load between concurrent misses and expires entries after their lifetime', async () => {
    jest.useFakeTimers({ now: 0 });
    const cache = new TtlCache<number>(1000);
    let loads = 0;
    const load = async () => ++loads;
    expect(await Promise.all([cache.get('k', load), cache.get('k', load)])).toEqual([1, 1]);
    jest.setSystemTime(999);
    expect(await cache.get('k', load)).toBe(1);
    jest.setSystemTime(1000);
    expect(cache.peek('k')).toBeUndefined();
    expect(await cache.get('k', load)).toBe(2);
  });

  it('never holds more than its bound: the oldest keys go first', async () => {
    const cache = new TtlCache<number>(60_000, 3);
    for (let i = 0; i < 10; i += 1) cache.set(`k${i}`, i);
    expect(cache.size).toBe(3);
    expect(cache.peek('k6')).toBeUndefined();
    expect(await cache.peek('k9')).toBe(9);
    expect(await cache.peek('k7')).toBe(7);
  });

  it('lets one entry live shorter or longer than the default', () => {
    jest.useFakeTimers({ now: 0 });
    const cache = new TtlCache<string>(1000);
    cache.set('long', 'x', 5000);
    jest.setSystemTime(4000);
    expect(cache.peek('long')).toBeDefined();
  });
});
