// When each followed watch expires, kept by one timer for the whole process: a watch waiting for
// its next block holds no timer of its own (100,000 watches would be 100,000 timers).

export interface Expiring {
  /** Epoch ms. */
  readonly expiresAt: number;
  /** Called once, at `expiresAt` (unless removed first). */
  expire(): void;
  /** Where the item is in the heap (kept by Deadlines, -1 when not in it): no Map entry of its own, so removing one is O(log n). */
  deadlineAt: number;
}

/** A min-heap of watches by `expiresAt`, and one unref'd timer for the earliest. */
export class Deadlines {
  readonly #heap: Expiring[] = [];
  #timer?: NodeJS.Timeout;
  /** When the timer fires. */
  #timerAt = Infinity;

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.#heap.length;
  }

  add(item: Expiring): void {
    if (item.deadlineAt >= 0) return;
    this.#heap.push(item);
    this.#up(this.#heap.length - 1);
    this.#arm();
  }

  delete(item: Expiring): void {
    const i = item.deadlineAt;
    if (i < 0 || this.#heap[i] !== item) return;
    item.deadlineAt = -1;
    const last = this.#heap.pop()!;
    if (i < this.#heap.length) {
      this.#put(last, i);
      this.#down(i);
      this.#up(i);
    }
    this.#arm();
  }

  #fire(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = this.now();
    for (let top = this.#heap[0]; top && top.expiresAt <= now; top = this.#heap[0]) {
      this.delete(top);
      top.expire();
    }
    this.#arm();
  }

  /** The timer set for the earliest deadline (a timer is at most ~24.8 days away: longer ones re-arm). */
  #arm(): void {
    const first = this.#heap[0]?.expiresAt ?? Infinity;
    if (first === this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = first;
    if (first === Infinity) return;
    this.#timer = setTimeout(() => this.#fire(), Math.min(2 ** 31 - 1, Math.max(0, first - this.now()))).unref();
  }

  #put(item: Expiring, i: number): void {
    this.#heap[i] = item;
    item.deadlineAt = i;
  }

  #up(i: number): void {
    const item = this.#heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = this.#heap[parent]!;
      if (above.expiresAt <= item.expiresAt) break;
      this.#put(above, i);
      i = parent;
    }
    this.#put(item, i);
  }

  #down(i: number): void {
    const item = this.#heap[i]!;
    const n = this.#heap.length;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.#heap[child + 1]!.expiresAt < this.#heap[child]!.expiresAt) child += 1;
      const below = this.#heap[child]!;
      if (below.expiresAt >= item.expiresAt) break;
      this.#put(below, i);
      i = child;
    }
    this.#put(item, i);
  }
}
