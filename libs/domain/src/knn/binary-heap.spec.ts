import { BinaryHeap } from './binary-heap';

describe('BinaryHeap', () => {
  // A strict total order: higher value first, then the lower name.
  const first = (a: [string, number], b: [string, number]) => a[1] > b[1] || (a[1] === b[1] && a[0] < b[0]);
  const sorted = (items: [string, number][]) =>
    [...items].sort((a, b) => (first(a, b) ? -1 : first(b, a) ? 1 : 0));
  const items: [string, number][] = Array.from({ length: 200 }, (_, i) => [
    `t${(i * 7919) % 200}`,
    (i * 37) % 11,
  ]);

  it('gives the items built into it in the order a full sort would', () => {
    const heap = new BinaryHeap(first, items);
    const out: [string, number][] = [];
    while (heap.size > 0) out.push(heap.pop());
    expect(out).toEqual(sorted(items));
  });

  it('gives pushed items in that order too, and peeks at the next without taking it', () => {
    const heap = new BinaryHeap(first);
    for (const item of items) heap.push(item);
    expect(heap.peek()).toEqual(sorted(items)[0]);
    expect(heap.size).toBe(items.length);
    const out: [string, number][] = [];
    while (heap.size > 0) out.push(heap.pop());
    expect(out).toEqual(sorted(items));
  });

  it('keeps the k best of a stream when the worst sits on top and is replaced', () => {
    const worse = (a: [string, number], b: [string, number]) => first(b, a);
    const heap = new BinaryHeap(worse);
    for (const item of items) {
      if (heap.size < 10) heap.push(item);
      else if (worse(heap.peek(), item)) heap.replaceTop(item);
    }
    expect(sorted(heap.toArray())).toEqual(sorted(items).slice(0, 10));
  });
});
