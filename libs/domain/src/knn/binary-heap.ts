/**
 * A binary heap: `first(a, b)` says whether `a` comes out before `b` (a strict total order gives the
 * order a full sort would). Built from items in linear time.
 */
export class BinaryHeap<T> {
  private readonly items: T[];

  constructor(
    private readonly first: (a: T, b: T) => boolean,
    items: readonly T[] = [],
  ) {
    this.items = [...items];
    for (let i = (this.items.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  get size(): number {
    return this.items.length;
  }

  /** The item that comes out next (the heap must not be empty). */
  peek(): T {
    return this.items[0]!;
  }

  push(item: T): void {
    this.items.push(item);
    this.up(this.items.length - 1);
  }

  /** Takes out the item that comes out next (the heap must not be empty). */
  pop(): T {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      this.down(0);
    }
    return top;
  }

  /** Puts `item` in place of the item that comes out next. */
  replaceTop(item: T): void {
    this.items[0] = item;
    this.down(0);
  }

  /** The items, in no particular order. */
  toArray(): T[] {
    return [...this.items];
  }

  private up(i: number): void {
    const items = this.items;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.first(items[i]!, items[parent]!)) return;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const items = this.items;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let next = i;
      if (left < items.length && this.first(items[left]!, items[next]!)) next = left;
      if (right < items.length && this.first(items[right]!, items[next]!)) next = right;
      if (next === i) return;
      [items[i], items[next]] = [items[next]!, items[i]!];
      i = next;
    }
  }
}
