// One finalized-head subscription per chain connection, shared by every stream that waits on that
// chain: each new block is announced once, and what a stream reads of it (events, extrinsics,
// timestamp) is read once for all of them. The watcher holds its connection from the pool while
// anyone listens; the last listener to leave unsubscribes and gives the connection back.
// A listener that names what can settle it (an extrinsic's hash, a message's id) is indexed under it
// and offered only the blocks that hold it: the watcher reads a block's extrinsics or events once,
// looks each up in its index, and an empty block costs the same however many listen.
import type { ConnectionPool, Lease } from '../../chains/pool';
import { abortable } from '../../chains/pool';
import { withDeadline } from '../../chains/deadline';
import { distinctEndpoints } from '../../chains/endpoint';
import { ChainResponseError, ProviderUnavailableError } from '../../errors';
import type { ApiPromise } from '../../sdk';
import { fromChainFailure, ReadBudget, type ReadLimits } from '../sdk-calls';
import { blockHashAt, subscribeFinalizedNumbers } from './chain-reads';
import { lazyBlock, type BlockView } from './reader';

/** A longer run of new heads at once (a node far ahead) is announced from its newest blocks: streams read any gap themselves. */
const MAX_GAP = 32;
/** Blocks a slow listener may have waiting; older ones are dropped (it reads the gap itself). */
const MAX_QUEUED = 256;

/** What alone can settle a listener: its extrinsic in a block, or its message's outcome in a block's events. */
export type Interest = { txHash: string } | { messageId: string };

/** Told of each block offered to a listener that nobody waits on (a parked watch: an object, not a closure per listener). */
export interface Notified {
  offered(): void;
}

/** A block offered to a listener, and the first of the blocks before it the watcher checked for it and passed over. */
export interface Offered {
  block: BlockView;
  /** Blocks `passedFrom` .. `block.number - 1` hold nothing for the listener (indexed listeners only). */
  passedFrom?: number;
}

export interface HeadSubscription {
  /** The next finalized block, in order; rejects when the watch fails or the signal aborts. */
  next(signal: AbortSignal): Promise<Offered>;
  /**
   * The next block (or the failure) offered and not yet taken, without waiting: for a listener
   * joined with a `Notified`, told at each offer instead of anyone waiting in `next`.
   */
  take(): Offered | Error | undefined;
  /**
   * Where a reader that needs block `next` next carries on, given the blocks the watcher has passed
   * over for this listener since (`next` itself when nothing is known of them).
   */
  caughtUp(next: number): number;
  /**
   * Joined with `from`: whether the watcher checks every block from `from` on for this listener
   * (it had not checked `from` yet), so that the listener need not read anything before the next
   * block offered. When false, the listener reads up to the head itself after joining.
   */
  readonly covered: boolean;
  /** Leaves the watch (the last to leave ends it). */
  close(): void;
}

const noop = (): void => undefined;

class Listener implements HeadSubscription {
  readonly #queue: (Offered | Error)[] = [];
  #wake = noop;
  /** Indexed only: the first block checked for this listener and not yet offered. */
  since = 0;
  covered = false;

  constructor(
    private readonly watcher: HeadWatcher,
    readonly interest?: Interest,
    private readonly notified?: Notified,
  ) {}

  push(item: Offered | Error): void {
    this.#queue.push(item);
    if (this.#queue.length > MAX_QUEUED) this.#queue.shift();
    if (this.notified) this.notified.offered();
    else this.#wake();
  }

  take(): Offered | Error | undefined {
    return this.#queue.shift();
  }

  caughtUp(next: number): number {
    if (!this.interest || this.#queue.length > 0) return next;
    const checked = this.watcher.checked;
    const from = Math.max(this.since, this.watcher.runStart);
    return checked !== undefined && from <= next && next <= checked ? checked + 1 : next;
  }

  async next(signal: AbortSignal): Promise<Offered> {
    for (;;) {
      signal.throwIfAborted();
      const item = this.#queue.shift();
      if (item instanceof Error) throw item;
      if (item) return item;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          signal.removeEventListener('abort', done);
          this.#wake = noop;
          resolve();
        };
        this.#wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  close(): void {
    this.watcher.leave(this);
  }
}

/** Listeners indexed under a key (a hash, an id): most keys have one, held without a Set of its own. */
class Index {
  readonly #map = new Map<string, Listener | Set<Listener>>();

  get size(): number {
    return this.#map.size;
  }

  add(key: string, listener: Listener): void {
    const held = this.#map.get(key);
    if (held === undefined) this.#map.set(key, listener);
    else if (held instanceof Set) held.add(listener);
    else if (held !== listener) this.#map.set(key, new Set([held, listener]));
  }

  delete(key: string, listener: Listener): void {
    const held = this.#map.get(key);
    if (held === listener) this.#map.delete(key);
    else if (held instanceof Set) {
      held.delete(listener);
      if (held.size === 1) this.#map.set(key, [...held][0]!);
    }
  }

  collect(key: string, into: Set<Listener>): void {
    const held = this.#map.get(key);
    if (held instanceof Set) for (const listener of held) into.add(listener);
    else if (held) into.add(held);
  }

  all(into: Set<Listener>): void {
    for (const held of this.#map.values()) {
      if (held instanceof Set) for (const listener of held) into.add(listener);
      else into.add(held);
    }
  }
}

class HeadWatcher {
  readonly listeners = new Set<Listener>();
  /** Listeners that name no interest: offered every block. */
  readonly #open = new Set<Listener>();
  readonly #byTx = new Index();
  readonly #byMessage = new Index();
  /** Listeners joined with a first block to read before the watcher checked any (see `join`). */
  #early = new Set<Listener>();
  /** The last block checked against the index, and the first of its run of consecutive blocks. */
  checked?: number;
  runStart = 0;
  readonly ready: Promise<void>;
  readonly #stop = new AbortController();
  #lease?: Lease;
  #unsubscribe = noop;
  #last?: number;
  #work: Promise<void> = Promise.resolve();

  constructor(
    readonly chain: string,
    private readonly endpoints: readonly string[],
    private readonly pool: ConnectionPool,
    private readonly readTimeoutMs: number,
    private readonly limits: ReadLimits,
    private readonly ended: (watcher: HeadWatcher) => void,
  ) {
    this.ready = this.#start();
    // Listeners see a failed start through their own await.
    this.ready.catch(noop);
  }

  /**
   * `from`: the first block the listener has not read. Past what the watcher checked, it is checked
   * from there on (covered); before its first block, the watcher offers that block to each listener
   * that had not read up to it (its reader reads the blocks between itself).
   */
  join(listener: Listener, from?: number): void {
    this.listeners.add(listener);
    const { interest } = listener;
    // Blocks checked from now on include it (its index entries are in place before the next lookup).
    const next = (this.checked ?? -1) + 1;
    listener.covered = interest !== undefined && from !== undefined && this.checked !== undefined && from >= next;
    listener.since = interest !== undefined && from !== undefined && (listener.covered || this.checked === undefined) ? from : next;
    if (interest !== undefined && from !== undefined && this.checked === undefined) this.#early.add(listener);
    if (!interest) this.#open.add(listener);
    else if ('txHash' in interest) this.#byTx.add(interest.txHash, listener);
    else this.#byMessage.add(interest.messageId, listener);
  }

  leave(listener: Listener): void {
    this.listeners.delete(listener);
    this.#early.delete(listener);
    const { interest } = listener;
    if (!interest) this.#open.delete(listener);
    else if ('txHash' in interest) this.#byTx.delete(interest.txHash, listener);
    else this.#byMessage.delete(interest.messageId, listener);
    if (this.listeners.size === 0) this.stop();
  }

  stop(): void {
    if (this.#stop.signal.aborted) return;
    this.#stop.abort(new Error('the head watch ended'));
    this.#unsubscribe();
    this.#lease?.api.off('disconnected', this.#dropped);
    this.#lease?.release();
    this.ended(this);
  }

  async #start(): Promise<void> {
    try {
      const lease = await this.pool.acquire(this.chain, this.endpoints, this.#stop.signal);
      this.#lease = lease;
      if (this.#stop.signal.aborted) return lease.release();
      lease.api.on('disconnected', this.#dropped);
      const subscribing = subscribeFinalizedNumbers(
        lease.api,
        this.chain,
        (number) => this.#announce(number),
        (error) => this.fail(error),
      );
      // A watch stopped (or timed out) before the subscription is set up cancels it once it is.
      subscribing.then((unsubscribe) => {
        if (this.#stop.signal.aborted) unsubscribe();
        else this.#unsubscribe = unsubscribe;
      }, noop);
      await this.#read(() => subscribing);
    } catch (error) {
      this.stop();
      throw error;
    }
  }

  readonly #dropped = (): void => this.fail(new ProviderUnavailableError(this.chain, this.endpoints, 'the connection was lost while following the chain'));

  /** A new finalized head: each block since the last one is announced in order. */
  #announce(number: number): void {
    if (this.#last !== undefined && number <= this.#last) return;
    const first = this.#last === undefined ? number : Math.max(this.#last + 1, number - MAX_GAP + 1);
    this.#last = number;
    this.#work = this.#work.then(async () => {
      for (let n = first; n <= number && !this.#stop.signal.aborted; n++) {
        // Each block has a budget of its own, as one request's: every stream it reaches counts what it cost.
        const budget = new ReadBudget(this.limits);
        const hash = await this.#read((api) => blockHashAt(api, this.chain, budget, n));
        if (!hash) throw new ChainResponseError(this.chain, `announced block ${number} as finalized but has no hash for block ${n}`);
        const block = lazyBlock(this.chain, { number: n, hash }, (work) => this.#read(work), budget);
        for (const listener of this.#open) listener.push({ block });
        await this.#offer(block);
      }
    }).catch((error: unknown) => this.fail(error));
  }

  /**
   * Offers `block` to the indexed listeners it holds something for. A block whose parts cannot be
   * read here is offered to every indexed listener: each then reads it and fails as it would alone.
   */
  async #offer(block: BlockView): Promise<void> {
    const matched = new Set<Listener>();
    try {
      if (this.#byTx.size > 0) for (const hash of await block.extrinsics()) this.#byTx.collect(hash, matched);
      if (this.#byMessage.size > 0) {
        for (const { fact } of await block.events()) if (fact?.kind === 'outcome') for (const id of fact.ids) this.#byMessage.collect(id, matched);
      }
    } catch {
      this.#byTx.all(matched);
      this.#byMessage.all(matched);
    }
    if (this.#stop.signal.aborted) return;
    // From the lookups to here nothing awaits: a listener joining later is checked from the next block.
    if (block.number !== (this.checked ?? -2) + 1) this.runStart = block.number;
    this.checked = block.number;
    // The first block checked: a listener that joined before it and had not read up to it is
    // offered it (nothing passed over), so that its reader reads the blocks between.
    const early = this.#early;
    this.#early = new Set();
    for (const listener of early) if (listener.since < block.number) matched.add(listener);
    for (const listener of matched) {
      if (!this.listeners.has(listener) || block.number < listener.since) continue;
      listener.push(early.has(listener) && listener.since < block.number ? { block } : { block, passedFrom: Math.max(listener.since, this.runStart) });
      listener.since = block.number + 1;
    }
  }

  /** One read on the watcher's connection, under its own deadline, failures named by chain. */
  async #read<T>(work: (api: ApiPromise) => Promise<T>): Promise<T> {
    const lease = this.#lease!;
    try {
      return await withDeadline(() => abortable(work(lease.api), this.#stop.signal), this.readTimeoutMs, `Reading ${this.chain}`);
    } catch (error) {
      throw fromChainFailure(error, [lease]) ?? error;
    }
  }

  /** Tells every listener of `error`, and ends the watch. */
  fail(error: unknown): void {
    if (this.#stop.signal.aborted) return;
    const failure = error instanceof Error ? error : new Error(String(error));
    for (const listener of this.listeners) listener.push(failure);
    this.stop();
  }
}

/** The head watchers of this process, one per chain connection (chain and endpoints). */
export class HeadWatchers {
  readonly #watchers = new Map<string, HeadWatcher>();

  constructor(
    private readonly pool: ConnectionPool,
    private readonly readTimeoutMs: number,
    private readonly limits: ReadLimits,
  ) {}

  /**
   * Joins (or starts) the watch of `chain`'s finalized heads; resolves once the subscription is set
   * up. With `notified`, each offer tells it (it then `take`s the block) and nobody waits.
   */
  async watch(chain: string, endpoints: readonly string[], signal: AbortSignal, interest?: Interest, from?: number, notified?: Notified): Promise<HeadSubscription> {
    const key = `${chain} ${distinctEndpoints(endpoints).join(' ')}`;
    let watcher = this.#watchers.get(key);
    if (!watcher) {
      const started = new HeadWatcher(chain, endpoints, this.pool, this.readTimeoutMs, this.limits, (w) => {
        if (this.#watchers.get(key) === w) this.#watchers.delete(key);
      });
      this.#watchers.set(key, started);
      watcher = started;
    }
    const listener = new Listener(watcher, interest, notified);
    watcher.join(listener, from);
    try {
      await abortable(watcher.ready, signal);
    } catch (error) {
      listener.close();
      throw error;
    }
    return listener;
  }

  /** How many listen to each chain (for /status and tests). */
  /** Each chain's head watch: its listeners, and the last block it checked (none before the first). */
  stats(): { chain: string; listeners: number; checked?: number }[] {
    return [...this.#watchers.values()].map((w) => ({ chain: w.chain, listeners: w.listeners.size, ...(w.checked !== undefined ? { checked: w.checked } : {}) }));
  }

  /** Ends every watch: its listeners are told (a watch waiting on one stops waiting). */
  close(): void {
    for (const watcher of [...this.#watchers.values()]) watcher.fail(new Error('the head watch ended: the service is closing'));
  }
}
