import type { Logger } from 'pino';
import { outsideEngineScopes, type ApiPromise } from '../sdk';
import { ProviderUnavailableError } from '../errors';
import { AddressGuard, quote } from './address-guard';
import { DEFAULT_MAX_FRAME_BYTES, type SocketContext } from './chain-socket';
import { connectFirst, type DialOptions } from './connect';
import { distinctEndpoints } from './endpoint';
import { protectApi } from './protect';
import { Slots } from './slots';

export interface PoolOptions {
  /** Bound on one whole connect (all endpoints, failover included). */
  connectTimeoutMs: number;
  /** How long a connection nobody borrows stays open. */
  idleTimeoutMs: number;
  /**
   * Cap on connections open or opening; idle ones are evicted, least recently used first. When
   * every one is in use, a request for another is refused at once (503), not queued.
   */
  maxChains: number;
  /** Which addresses may be dialled (default: any, for tests and private deployments). */
  guard?: AddressGuard;
  /** Largest frame accepted from a node (default 16 MiB). */
  maxFrameBytes?: number;
  /** New connections decoding metadata at once (default 2). */
  maxDecoding?: number;
  logger?: Logger;
  /** Told about borrows and connect outcomes (metrics, /status); must not throw. */
  observer?: PoolObserver;
}

/** A borrowed connection. `api.disconnect()` is a no-op; call `release()` exactly once when done. */
export interface Lease {
  readonly api: ApiPromise;
  readonly chain: string;
  /** The endpoints the connection was opened for (normalised). */
  readonly endpoints: readonly string[];
  /** What the connection's socket last reported going wrong, if anything. */
  readonly context: SocketContext;
  release(): void;
}

interface Entry {
  readonly key: string;
  readonly chain: string;
  readonly endpoints: readonly string[];
  /** Settles once: the protected api and its socket context, or the connect failure. */
  readonly ready: Promise<{ api: ApiPromise; context: SocketContext }>;
  /** Cancels the connect attempt (pool closing, entry evicted while connecting). */
  readonly abort: AbortController;
  api?: ApiPromise;
  leases: number;
  lastUsed: number;
  idleTimer?: NodeJS.Timeout;
}

const noop = (): void => undefined;

/**
 * One ApiPromise per endpoint set, shared by every request. Concurrent acquires during a
 * connect wait on the same attempt; failed attempts are not cached.
 */
export class ConnectionPool {
  readonly #options: PoolOptions;
  readonly #entries = new Map<string, Entry>();
  readonly #dial: DialOptions;
  #closed = false;

  constructor(options: PoolOptions) {
    // Every line the pool writes names where it comes from, as the chain clients' lines do.
    this.#options = { ...options, logger: options.logger?.child({ origin: 'chains' }) };
    this.#dial = {
      guard: options.guard ?? new AddressGuard(true),
      maxFrameBytes: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
      decodeSlots: new Slots(options.maxDecoding ?? 2),
    };
  }

  /** The address policy every connection of this pool obeys. */
  get guard(): AddressGuard {
    return this.#dial.guard;
  }

  /** Largest frame a connection accepts from a node. */
  get maxFrameBytes(): number {
    return this.#dial.maxFrameBytes;
  }

  /** Connections open or opening (what maxChains bounds). */
  get size(): number {
    return this.#entries.size;
  }

  /** Connections that are open and ready. */
  get openCount(): number {
    let count = 0;
    for (const entry of this.#entries.values()) if (entry.api) count++;
    return count;
  }

  async acquire(chain: string, urls: readonly string[], signal?: AbortSignal): Promise<Lease> {
    const endpoints = distinctEndpoints(urls);
    if (this.#closed) throw new ProviderUnavailableError(chain, endpoints.map((e) => quote(e)), 'the connection pool is closed');
    if (endpoints.length === 0) throw new ProviderUnavailableError(chain, endpoints, 'no endpoints configured');
    signal?.throwIfAborted();

    const key = endpoints.join(' ');
    const entry = this.#entries.get(key) ?? this.#open(key, chain, endpoints);
    // Count the borrower before waiting: a connecting or borrowed entry is never idle.
    entry.leases++;
    entry.lastUsed = Date.now();
    clearTimeout(entry.idleTimer);

    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.#release(entry);
    };
    try {
      const { api, context } = await abortable(entry.ready, signal);
      // Counted once lent: a request that waited on a connect that failed was not served.
      this.#options.observer?.acquired(chain);
      return { api, chain, endpoints, context, release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Disconnects everything; pending acquires reject and later ones are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(entries.map((entry) => this.#shut(entry, 'the connection pool is closed')));
  }

  #open(key: string, chain: string, endpoints: readonly string[]): Entry {
    this.#makeRoom(chain);
    const abort = new AbortController();
    const { connectTimeoutMs, logger } = this.#options;
    // A shared connection belongs to no request: dial it outside the request's engine scope.
    const ready = outsideEngineScopes(() => connectFirst(chain, endpoints, connectTimeoutMs, abort.signal, this.#dial, logger)).then(
      ({ api, context }) => {
        this.#options.observer?.connected(chain, api);
        return { api: this.#adopt(entry, api), context };
      },
      (error: unknown) => {
        this.#options.observer?.failed(chain, error);
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
        throw error;
      },
    );
    // Waiters see the rejection through their own await; this only stops an unhandled one.
    ready.catch(noop);
    const entry: Entry = { key, chain, endpoints, ready, abort, leases: 0, lastUsed: Date.now() };
    this.#entries.set(key, entry);
    return entry;
  }

  /** Keeps a freshly connected api, unless its entry was dropped while connecting. */
  #adopt(entry: Entry, api: ApiPromise): ApiPromise {
    if (this.#entries.get(entry.key) !== entry) {
      api.disconnect().catch(noop);
      throw new ProviderUnavailableError(entry.chain, entry.endpoints, 'the connection was closed while connecting');
    }
    entry.api = api;
    // The provider does not reconnect on its own: forget a dropped connection so the
    // next acquire dials again.
    api.once('disconnected', () => {
      if (this.#entries.get(entry.key) !== entry) return;
      this.#options.logger?.warn({ chain: entry.chain }, 'chain connection dropped');
      this.#entries.delete(entry.key);
      void this.#shut(entry, 'the connection dropped');
    });
    if (entry.leases === 0) this.#startIdle(entry);
    return protectApi(api);
  }

  #release(entry: Entry): void {
    entry.leases--;
    entry.lastUsed = Date.now();
    if (entry.leases === 0 && entry.api && this.#entries.get(entry.key) === entry) this.#startIdle(entry);
  }

  #startIdle(entry: Entry): void {
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      if (entry.leases > 0 || this.#entries.get(entry.key) !== entry) return;
      this.#options.logger?.debug({ chain: entry.chain }, 'closing idle chain connection');
      this.#entries.delete(entry.key);
      void this.#shut(entry, 'the connection was idle');
    }, this.#options.idleTimeoutMs);
    // An idle connection alone should not keep the process alive.
    entry.idleTimer.unref();
  }

  /**
   * Evicts least-recently-used idle connections until a new one fits under maxChains; with
   * every connection in use or connecting, refuses the new one at once.
   */
  #makeRoom(chain: string): void {
    const { maxChains, logger } = this.#options;
    while (this.#entries.size >= maxChains) {
      let oldest: Entry | undefined;
      for (const entry of this.#entries.values()) {
        if (entry.leases === 0 && entry.api && (!oldest || entry.lastUsed < oldest.lastUsed)) oldest = entry;
      }
      if (!oldest) {
        logger?.warn({ chain, open: this.#entries.size, maxChains }, 'maxChains reached: every connection is in use or connecting');
        throw new ProviderUnavailableError(chain, [], `${maxChains} chain connections (MAX_CHAINS) are in use or connecting; try again shortly`, 1);
      }
      logger?.debug({ chain: oldest.chain, for: chain }, 'evicting least recently used chain connection');
      this.#entries.delete(oldest.key);
      void this.#shut(oldest, 'evicted');
    }
  }

  /** Stops an entry that is no longer in the map: cancels its connect or disconnects it. */
  async #shut(entry: Entry, reason: string): Promise<void> {
    clearTimeout(entry.idleTimer);
    entry.abort.abort(new Error(reason));
    const api = entry.api;
    entry.api = undefined;
    await (api ? api.disconnect().catch(noop) : entry.ready.then(noop, noop));
  }

  /** A snapshot of every entry, for metrics and /status. */
  stats(): PoolEntryStats[] {
    return [...this.#entries.values()].map((e) => ({ chain: e.chain, state: e.api ? 'open' : 'connecting', leases: e.leases }));
  }
}

/** Rejects with the signal's reason as soon as it aborts; the shared work carries on. */
export function abortable<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Hooks for metrics and /status (see PoolOptions.observer). */
export interface PoolObserver {
  /** A connection was lent (its connect succeeded). */
  acquired(chain: string): void;
  connected(chain: string, api: ApiPromise): void;
  failed(chain: string, error: unknown): void;
}

/** What one open or connecting entry looks like from outside (read-only figures). */
export interface PoolEntryStats {
  chain: string;
  state: 'connecting' | 'open';
  leases: number;
}
