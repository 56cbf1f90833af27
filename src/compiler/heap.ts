/** A binary heap ordered by `before(a, b)` (true when `a` comes out first). */
export class Heap<T> {
  private readonly items: T[] = [];
  private readonly before: (a: T, b: T) => boolean;

  constructor(before: (a: T, b: T) => boolean) {
    this.before = before;
  }

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const a = this.items;
    a.push(item);
    let k = a.length - 1;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (!this.before(a[k] as T, a[parent] as T)) break;
      [a[k], a[parent]] = [a[parent] as T, a[k] as T];
      k = parent;
    }
  }

  /** Add many at once: appended, then heapified bottom-up, in linear time. */
  pushAll(items: readonly T[]): void {
    const a = this.items;
    for (const item of items) a.push(item);
    for (let k = (a.length >> 1) - 1; k >= 0; k--) this.sink(k);
  }

  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      this.sink(0);
    }
    return top;
  }

  private sink(start: number): void {
    const a = this.items;
    let k = start;
    for (;;) {
      const l = 2 * k + 1;
      const r = l + 1;
      let best = k;
      if (l < a.length && this.before(a[l] as T, a[best] as T)) best = l;
      if (r < a.length && this.before(a[r] as T, a[best] as T)) best = r;
      if (best === k) break;
      [a[k], a[best]] = [a[best] as T, a[k] as T];
      k = best;
    }
  }
}
