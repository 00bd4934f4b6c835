import { readAhead } from './prediction-filters';

async function* numbers(count: number): AsyncGenerator<number> {
  for (let i = 0; i < count; i++) yield i;
}

/** A read that resolves when `release(i)` is called, recording when it began. */
function gatedReads() {
  const gates = new Map<number, () => void>();
  const begun: number[] = [];
  const read = (i: number) =>
    new Promise<string>((done) => {
      begun.push(i);
      gates.set(i, () => done(`batch ${i}`));
    });
  return { read, begun, release: (i: number) => gates.get(i)!() };
}

describe('readAhead', () => {
  it('yields every batch once, in order', async () => {
    const out: string[] = [];
    for await (const text of readAhead(numbers(5), async (i) => `batch ${i}`)) out.push(text);
    expect(out).toEqual(['batch 0', 'batch 1', 'batch 2', 'batch 3', 'batch 4']);
  });

  it('yields nothing for no batches', async () => {
    const out: string[] = [];
    for await (const text of readAhead(numbers(0), async (i) => `batch ${i}`)) out.push(text);
    expect(out).toEqual([]);
  });

  it('reads the next batch while the consumer holds this one, and no further', async () => {
    const { read, begun, release } = gatedReads();
    const reader = readAhead(numbers(4), read);
    const first = reader.next();
    await new Promise((r) => setImmediate(r));
    // Batch 0 and batch 1 are both being read before batch 0 is handed over.
    expect(begun).toEqual([0, 1]);
    release(0);
    expect(await first).toEqual({ value: 'batch 0', done: false });
    // While the consumer works on batch 0, batch 1 is read and batch 2 is not started.
    await new Promise((r) => setImmediate(r));
    expect(begun).toEqual([0, 1]);
    const second = reader.next();
    await new Promise((r) => setImmediate(r));
    expect(begun).toEqual([0, 1, 2]);
    release(1);
    expect(await second).toEqual({ value: 'batch 1', done: false });
    await reader.return(undefined);
  });

  it('surfaces a failed read at its batch, after the batches before it', async () => {
    const out: string[] = [];
    const read = async (i: number) => {
      if (i === 2) throw new Error('read failed');
      return `batch ${i}`;
    };
    await expect(
      (async () => {
        for await (const text of readAhead(numbers(4), read)) out.push(text);
      })(),
    ).rejects.toThrow('read failed');
    expect(out).toEqual(['batch 0', 'batch 1']);
  });

  it('leaves no unhandled rejection behind when the consumer stops before a failed read', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const read = async (i: number) => {
        if (i === 1) throw new Error('read ahead failed');
        return `batch ${i}`;
      };
      for await (const text of readAhead(numbers(3), read)) {
        expect(text).toBe('batch 0');
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
