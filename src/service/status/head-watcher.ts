// One finalized-head subscription per chain connection, shared by every stream that waits on that
// chain: each new block is announced once, and what a stream reads of it (events, extrinsics,
// timestamp) is read once for all of them. The watcher holds its connection from the pool while
// anyone listens; the last listener to leave unsubscribes and gives the connection back.
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

export interface HeadSubscription {
  /** The next finalized block, in order; rejects when the watch fails or the signal aborts. */
  next(signal: AbortSignal): Promise<BlockView>;
  /** Leaves the watch (the last to leave ends it). */
  close(): void;
}

const noop = (): void => undefined;

class Listener implements HeadSubscription {
  readonly #queue: (BlockView | Error)[] = [];
  #wake = noop;

  constructor(private readonly watcher: HeadWatcher) {}

  push(item: BlockView | Error): void {
    this.#queue.push(item);
    if (this.#queue.length > MAX_QUEUED) this.#queue.shift();
    this.#wake();
  }

  async next(signal: AbortSignal): Promise<BlockView> {
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

class HeadWatcher {
  readonly listeners = new Set<Listener>();
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

  leave(listener: Listener): void {
    this.listeners.delete(listener);
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
        (error) => this.#fail(error),
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

  readonly #dropped = (): void => this.#fail(new ProviderUnavailableError(this.chain, this.endpoints, 'the connection was lost while following the chain'));

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
        for (const listener of this.listeners) listener.push(block);
      }
    }).catch((error: unknown) => this.#fail(error));
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

  #fail(error: unknown): void {
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

  /** Joins (or starts) the watch of `chain`'s finalized heads; resolves once the subscription is set up. */
  async watch(chain: string, endpoints: readonly string[], signal: AbortSignal): Promise<HeadSubscription> {
    const key = `${chain} ${distinctEndpoints(endpoints).join(' ')}`;
    let watcher = this.#watchers.get(key);
    if (!watcher) {
      const started = new HeadWatcher(chain, endpoints, this.pool, this.readTimeoutMs, this.limits, (w) => {
        if (this.#watchers.get(key) === w) this.#watchers.delete(key);
      });
      this.#watchers.set(key, started);
      watcher = started;
    }
    const listener = new Listener(watcher);
    watcher.listeners.add(listener);
    try {
      await abortable(watcher.ready, signal);
    } catch (error) {
      listener.close();
      throw error;
    }
    return listener;
  }

  /** How many listen to each chain (for /status and tests). */
  stats(): { chain: string; listeners: number }[] {
    return [...this.#watchers.values()].map((w) => ({ chain: w.chain, listeners: w.listeners.size }));
  }

  close(): void {
    for (const watcher of [...this.#watchers.values()]) watcher.stop();
  }
}
