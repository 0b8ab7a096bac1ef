// The embedded watch backend (no REDIS_URL): everything in this process's memory, so watches end
// with it. It keeps the promises of WatchBackend the way the Redis backend does: bounds on watches
// followed or owing deliveries, compare-and-set progress, one try at a time per watch in seq order, at most
// `maxDeliveries` tries in flight shared fairly (fair-slots.ts), ended watches readable for
// `retainMs` once their events settle, within bounds per owner.
import type { BackendOptions, DeliverWork, FollowWork, Following, WatchBackend, WatchCounts, WatchView } from './backend';
import { deliverySlotsOf, hostOf, type FairSlots, type Slot } from './fair-slots';
import { endedProgress, type Delivery, type Watch, type WatchEvent, type WatchProgress } from './model';
import { recordBytes, statusBytesOf } from './record-size';
import { afterTry, failedTry, waiting } from './tries';

interface Entry {
  watch: Watch;
  progress: WatchProgress;
  /** Each event made, in seq order; one settled is let go of (GET shows its delivery, not its body). */
  events: (WatchEvent | undefined)[];
  deliveries: Delivery[];
  /** Index of the first event not settled: the only one tried. */
  head: number;
  /** Counted against the bounds: followed, or owing deliveries. */
  held: boolean;
  /** Once ended and settled: the record's bytes (its JSON, bounded from above), counted against its owner's retention bounds. */
  size?: number;
  /** Once ended: the bytes of its status answer's JSON (record-size.ts), from the event that ended it. */
  statusBytes?: number;
  /** When the head's first try started. */
  firstAt?: number;
  /** The head is queued for a slot, being tried, or waiting for its next try. */
  busy: boolean;
  gone: boolean;
  follower?: Following;
  /** The head's next try. */
  retryTimer?: NodeJS.Timeout;
  /** The next run of a follow that stopped short, or the end of retention once ended. */
  timer?: NodeJS.Timeout;
}

export class MemoryBackend implements WatchBackend {
  readonly kind = 'memory' as const;
  readonly #options: BackendOptions;
  readonly #entries = new Map<string, Entry>();
  /** Watches held (followed or owing deliveries) per owner (absent at 0). */
  readonly #owners = new Map<string, number>();
  #held = 0;
  /** Watches followed. */
  #open = 0;
  /** Each owner's ended, settled records, oldest first, and their bytes. */
  readonly #retained = new Map<string, { entries: Set<Entry>; bytes: number }>();
  #queued = 0;
  /** The delivery slots: a watch's head waits here for its turn. */
  readonly #slots: FairSlots;
  /** Aborts the waits for a slot when closing. */
  readonly #closing = new AbortController();
  /** Tries running, so that close() returns once they have stopped. */
  readonly #running = new Set<Promise<void>>();
  /** Follows running, and who waits for the last to stop (close). */
  #following = 0;
  #stopped?: () => void;
  #work?: { follow: FollowWork; deliver: DeliverWork };
  #closed = false;

  constructor(options: BackendOptions) {
    this.#options = options;
    this.#slots = deliverySlotsOf(options);
  }

  async add(watch: Watch, progress: WatchProgress, events: WatchEvent[]): Promise<'added' | 'MAX_WATCHES' | 'MAX_WATCHES_PER_CLIENT'> {
    if (this.#entries.has(watch.id)) throw new Error(`watch ${watch.id} exists`);
    if (this.#held >= this.#options.maxWatches) return 'MAX_WATCHES';
    if ((this.#owners.get(watch.owner) ?? 0) >= this.#options.maxWatchesPerClient) return 'MAX_WATCHES_PER_CLIENT';
    const entry: Entry = { watch, progress: progress.ended ? endedProgress(progress) : progress, events: [], deliveries: [], head: 0, held: false, busy: false, gone: false };
    if (progress.ended) entry.statusBytes = statusBytesOf(progress, events);
    this.#entries.set(watch.id, entry);
    if (!progress.ended) this.#open += 1;
    if (!progress.ended || events.length > 0) this.#hold(entry, true);
    this.#append(entry, events);
    if (!progress.ended) this.#follow(entry);
    this.#retainIfDone(entry);
    return 'added';
  }

  async get(id: string): Promise<WatchView | undefined> {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    return structuredClone({ watch: entry.watch, progress: entry.progress, deliveries: entry.deliveries });
  }

  async remove(id: string): Promise<boolean> {
    const entry = this.#entries.get(id);
    if (!entry) return false;
    this.#drop(entry);
    return true;
  }

  async advance(id: string, progress: WatchProgress, events: WatchEvent[]): Promise<boolean> {
    const entry = this.#entries.get(id);
    if (!entry || entry.progress.ended || entry.progress.events !== progress.events - events.length) return false;
    entry.progress = progress.ended ? endedProgress(progress) : progress;
    if (progress.ended) {
      this.#open -= 1;
      entry.statusBytes = statusBytesOf(progress, events);
    }
    this.#append(entry, events);
    this.#retainIfDone(entry);
    return true;
  }

  async counts(): Promise<WatchCounts> {
    return { open: this.#open, ended: this.#entries.size - this.#open, queued: this.#queued };
  }

  start(follow: FollowWork, deliver: DeliverWork): void {
    if (this.#work || this.#closed) return;
    this.#work = { follow, deliver };
    for (const entry of this.#entries.values()) {
      if (!entry.progress.ended) this.#follow(entry);
      this.#pump(entry);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort(new Error('closing'));
    const stopped = new Promise<void>((resolve) => (this.#stopped = resolve));
    for (const entry of this.#entries.values()) {
      entry.follower?.stop(new Error('closing'));
      clearTimeout(entry.timer);
      clearTimeout(entry.retryTimer);
    }
    if (this.#following === 0) this.#stopped?.();
    await Promise.allSettled([...this.#running, stopped]);
  }

  /** Counts the watch against the bounds, or stops counting it. */
  #hold(entry: Entry, held: boolean): void {
    if (entry.held === held) return;
    entry.held = held;
    const by = held ? 1 : -1;
    this.#held += by;
    const count = (this.#owners.get(entry.watch.owner) ?? 0) + by;
    if (count > 0) this.#owners.set(entry.watch.owner, count);
    else this.#owners.delete(entry.watch.owner);
  }

  #drop(entry: Entry): void {
    entry.gone = true;
    this.#entries.delete(entry.watch.id);
    if (!entry.progress.ended) this.#open -= 1;
    this.#hold(entry, false);
    const retained = this.#retained.get(entry.watch.owner);
    if (entry.size !== undefined && retained?.entries.delete(entry)) {
      retained.bytes -= entry.size;
      if (retained.entries.size === 0) this.#retained.delete(entry.watch.owner);
    }
    entry.follower?.stop(new Error('watch removed'));
    clearTimeout(entry.timer);
    clearTimeout(entry.retryTimer);
    if (entry.size === undefined) for (const delivery of entry.deliveries.slice(entry.head)) delivery.state = 'cancelled';
    this.#queued -= entry.events.length - entry.head;
    // A watch queued for a slot gives it back when its turn comes (see #queue).
  }

  #append(entry: Entry, events: readonly WatchEvent[]): void {
    // Arrays of their exact size (a pushed one keeps room to grow), held while the watch is.
    entry.events = entry.events.concat(events);
    entry.deliveries = entry.deliveries.concat(events.map(waiting));
    this.#queued += events.length;
    this.#pump(entry);
  }

  /** Follows until the watch ends or is removed; a follow that stops short runs again after the lease. */
  #follow(entry: Entry): void {
    if (!this.#work || this.#closed) return;
    this.#following += 1;
    let following: Following | undefined;
    let ended = false;
    // Not copied: records are replaced, never changed in place (a follower records a new progress).
    following = this.#work.follow(entry.watch, entry.progress, () => {
      ended = true;
      this.#following -= 1;
      if (entry.follower === following) entry.follower = undefined;
      if (this.#closed) {
        if (this.#following === 0) this.#stopped?.();
        return;
      }
      if (entry.gone || entry.progress.ended) return;
      entry.timer = setTimeout(() => this.#follow(entry), this.#options.leaseMs).unref();
    });
    if (!ended) entry.follower = following;
  }

  /** Asks for a slot for the watch's head event, unless it has one or has none to deliver. */
  #pump(entry: Entry): void {
    if (!this.#work || this.#closed || entry.gone || entry.busy || entry.head >= entry.events.length) return;
    entry.busy = true;
    this.#queue(entry);
  }

  /** Waits for the head's turn at a slot, then tries it. */
  #queue(entry: Entry): void {
    this.#slots.acquire({ owner: entry.watch.owner, host: hostOf(entry.watch.webhook.url) }, this.#closing.signal).then(
      (slot) => {
        if (entry.gone || this.#closed) slot.release();
        else this.#try(entry, slot);
      },
      // Closing: the wait is dropped with the process's watches.
      () => undefined,
    );
  }

  #try(entry: Entry, { release, cut }: Slot): void {
    const work = this.#work;
    const event = entry.events[entry.head];
    const delivery = entry.deliveries[entry.head];
    if (!work || !event || !delivery) return release();
    const startedAt = Date.now();
    entry.firstAt ??= startedAt;
    const run = work
      .deliver(entry.watch, event, delivery.attempts + 1, cut)
      .catch(failedTry)
      .then((result) => {
        this.#slots.tried(hostOf(entry.watch.webhook.url), result);
        if (entry.gone || this.#closed) return;
        const next = afterTry(delivery, result, this.#options.retry, entry.firstAt ?? startedAt, startedAt);
        entry.deliveries[entry.head] = next;
        if (next.state === 'retrying') {
          // nextAt counts from the try's start: a try that took longer than the delay is retried now
          // (Node.js 24 warns of a negative delay).
          entry.retryTimer = setTimeout(
            () => {
              entry.retryTimer = undefined;
              this.#queue(entry);
            },
            Math.max(0, (next.nextAt ?? startedAt) - Date.now()),
          ).unref();
        } else {
          entry.events[entry.head] = undefined;
          entry.head += 1;
          entry.firstAt = undefined;
          entry.busy = false;
          this.#queued -= 1;
          this.#pump(entry);
          this.#retainIfDone(entry);
        }
      })
      .finally(() => {
        release();
        this.#running.delete(run);
      });
    this.#running.add(run);
  }

  /**
   * An ended watch whose events are all settled stops counting against the bounds, and is forgotten
   * `retainMs` later, or sooner when its owner's retained records pass their bounds (oldest first).
   */
  #retainIfDone(entry: Entry): void {
    if (!entry.progress.ended || entry.head < entry.events.length || entry.gone || this.#closed || entry.size !== undefined) return;
    this.#hold(entry, false);
    // Settled: the bodies are sent (GET shows the deliveries, not the bodies).
    entry.events = [];
    entry.head = 0;
    entry.size = recordBytes(entry.watch, entry.statusBytes ?? statusBytesOf(entry.progress, []), entry.deliveries);
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.#drop(entry), this.#options.retainMs).unref();
    let retained = this.#retained.get(entry.watch.owner);
    if (!retained) this.#retained.set(entry.watch.owner, (retained = { entries: new Set(), bytes: 0 }));
    retained.entries.add(entry);
    retained.bytes += entry.size;
    const { retainPerClient, retainBytesPerClient } = this.#options;
    while (retained.entries.size > retainPerClient || retained.bytes > retainBytesPerClient) {
      const [oldest] = retained.entries;
      if (!oldest) break;
      this.#drop(oldest);
    }
  }
}
