// The embedded watch backend (no REDIS_URL): everything in this process's memory, so watches end
// with it. It keeps the promises of WatchBackend the way the Redis backend does: bounds on open
// watches, compare-and-set progress, one try at a time per watch in seq order, at most
// `maxDeliveries` tries in flight shared fairly (fair-slots.ts), ended watches readable for
// `retainMs` once their events settle.
import type { Logger } from 'pino';
import type { BackendOptions, DeliverWork, FollowWork, WatchBackend, WatchCounts, WatchView } from './backend';
import { FairSlots, hostOf } from './fair-slots';
import type { Delivery, Watch, WatchEvent, WatchProgress } from './model';
import { afterTry, failedTry, waiting } from './tries';

interface Entry {
  watch: Watch;
  progress: WatchProgress;
  events: WatchEvent[];
  deliveries: Delivery[];
  /** Index of the first event not settled: the only one tried. */
  head: number;
  /** When the head's first try started. */
  firstAt?: number;
  /** The head is queued for a slot, being tried, or waiting for its next try. */
  busy: boolean;
  gone: boolean;
  follower?: AbortController;
  /** The head's next try. */
  retryTimer?: NodeJS.Timeout;
  /** The next run of a follow that stopped short, or the end of retention once ended. */
  timer?: NodeJS.Timeout;
}

export class MemoryBackend implements WatchBackend {
  readonly kind = 'memory' as const;
  readonly #options: BackendOptions;
  readonly #logger: Logger;
  readonly #entries = new Map<string, Entry>();
  /** Open watches per owner (absent at 0). */
  readonly #owners = new Map<string, number>();
  #open = 0;
  #queued = 0;
  /** The delivery slots: a watch's head waits here for its turn. */
  readonly #slots: FairSlots;
  /** Aborts the waits for a slot when closing. */
  readonly #closing = new AbortController();
  /** Follows and tries running, so that close() returns once they have stopped. */
  readonly #running = new Set<Promise<void>>();
  #work?: { follow: FollowWork; deliver: DeliverWork };
  #closed = false;

  constructor(options: BackendOptions, logger: Logger) {
    this.#options = options;
    this.#logger = logger;
    this.#slots = new FairSlots({ total: options.maxDeliveries, perOwner: options.maxDeliveriesPerClient, perHost: options.maxDeliveriesPerHost });
  }

  async add(watch: Watch, progress: WatchProgress, events: WatchEvent[]): Promise<'added' | 'MAX_WATCHES' | 'MAX_WATCHES_PER_CLIENT'> {
    if (this.#entries.has(watch.id)) throw new Error(`watch ${watch.id} exists`);
    if (this.#open >= this.#options.maxWatches) return 'MAX_WATCHES';
    if ((this.#owners.get(watch.owner) ?? 0) >= this.#options.maxWatchesPerClient) return 'MAX_WATCHES_PER_CLIENT';
    const entry: Entry = { watch, progress, events: [], deliveries: [], head: 0, busy: false, gone: false };
    this.#entries.set(watch.id, entry);
    if (!progress.ended) this.#opened(watch.owner, 1);
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
    entry.progress = progress;
    if (progress.ended) this.#opened(entry.watch.owner, -1);
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
    for (const entry of this.#entries.values()) {
      entry.follower?.abort(new Error('closing'));
      clearTimeout(entry.timer);
      clearTimeout(entry.retryTimer);
    }
    await Promise.allSettled([...this.#running]);
  }

  #opened(owner: string, by: 1 | -1): void {
    this.#open += by;
    const count = (this.#owners.get(owner) ?? 0) + by;
    if (count > 0) this.#owners.set(owner, count);
    else this.#owners.delete(owner);
  }

  #drop(entry: Entry): void {
    entry.gone = true;
    this.#entries.delete(entry.watch.id);
    if (!entry.progress.ended) this.#opened(entry.watch.owner, -1);
    entry.follower?.abort(new Error('watch removed'));
    clearTimeout(entry.timer);
    clearTimeout(entry.retryTimer);
    for (const delivery of entry.deliveries.slice(entry.head)) delivery.state = 'cancelled';
    this.#queued -= entry.events.length - entry.head;
    // A watch queued for a slot gives it back when its turn comes (see #queue).
  }

  #append(entry: Entry, events: readonly WatchEvent[]): void {
    entry.events.push(...events);
    entry.deliveries.push(...events.map(waiting));
    this.#queued += events.length;
    this.#pump(entry);
  }

  /** Follows until the watch ends or is removed; a follow that stops short runs again after the lease. */
  #follow(entry: Entry): void {
    if (!this.#work || this.#closed) return;
    const controller = new AbortController();
    entry.follower = controller;
    const run = this.#work
      .follow(structuredClone(entry.watch), structuredClone(entry.progress), controller.signal)
      .catch((error: unknown) => this.#logger.warn({ watch: entry.watch.id, err: error instanceof Error ? error.message : String(error) }, 'watch follow failed'))
      .finally(() => {
        this.#running.delete(run);
        if (entry.follower === controller) entry.follower = undefined;
        if (entry.gone || entry.progress.ended || controller.signal.aborted || this.#closed) return;
        entry.timer = setTimeout(() => this.#follow(entry), this.#options.leaseMs).unref();
      });
    this.#running.add(run);
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
      (release) => {
        if (entry.gone || this.#closed) release();
        else this.#try(entry, release);
      },
      // Closing: the wait is dropped with the process's watches.
      () => undefined,
    );
  }

  #try(entry: Entry, release: () => void): void {
    const work = this.#work;
    const event = entry.events[entry.head];
    const delivery = entry.deliveries[entry.head];
    if (!work || !event || !delivery) return release();
    const startedAt = Date.now();
    entry.firstAt ??= startedAt;
    const run = work
      .deliver(entry.watch, event, delivery.attempts + 1)
      .catch(failedTry)
      .then((result) => {
        if (entry.gone || this.#closed) return;
        const next = afterTry(delivery, result, this.#options.retry, entry.firstAt ?? startedAt, startedAt);
        entry.deliveries[entry.head] = next;
        if (next.state === 'retrying') {
          entry.retryTimer = setTimeout(() => {
            entry.retryTimer = undefined;
            this.#queue(entry);
          }, (next.nextAt ?? startedAt) - Date.now()).unref();
        } else {
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

  /** An ended watch whose events are all settled is forgotten `retainMs` later. */
  #retainIfDone(entry: Entry): void {
    if (!entry.progress.ended || entry.head < entry.events.length || entry.gone || this.#closed) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.#drop(entry), this.#options.retainMs).unref();
  }
}
