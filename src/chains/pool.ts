import type { Logger } from 'pino';
import type { ApiPromise } from '../sdk';
import { ProviderUnavailableError } from '../errors';
import { connectFirst } from './connect';
import { protectApi } from './protect';

export interface PoolOptions {
  /** Bound on one whole connect (all endpoints, failover included). */
  connectTimeoutMs: number;
  /** How long a connection nobody borrows stays open. */
  idleTimeoutMs: number;
  /** Soft cap on open connections; idle ones are evicted, least recently used first. */
  maxChains: number;
  logger?: Logger;
  /** Told about borrows and connect outcomes (metrics, /status); must not throw. */
  observer?: PoolObserver;
}

/** A borrowed connection. `api.disconnect()` is a no-op; call `release()` exactly once when done. */
export interface Lease {
  readonly api: ApiPromise;
  release(): void;
}

interface Entry {
  readonly key: string;
  readonly chain: string;
  readonly endpoints: readonly string[];
  /** Settles once: the protected api, or the connect failure. */
  readonly ready: Promise<ApiPromise>;
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
  #closed = false;

  constructor(options: PoolOptions) {
    this.#options = options;
  }

  /** Connections that are open and ready. */
  get openCount(): number {
    let count = 0;
    for (const entry of this.#entries.values()) if (entry.api) count++;
    return count;
  }

  async acquire(chain: string, endpoints: readonly string[], signal?: AbortSignal): Promise<Lease> {
    if (this.#closed) throw new ProviderUnavailableError(chain, endpoints, 'the connection pool is closed');
    if (endpoints.length === 0) throw new ProviderUnavailableError(chain, endpoints, 'no endpoints configured');
    signal?.throwIfAborted();

    const key = endpoints.join(' ');
    const entry = this.#entries.get(key) ?? this.#open(key, chain, endpoints);
    this.#options.observer?.acquired(chain);
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
      const api = await abortable(entry.ready, signal);
      return { api, release };
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
    const ready = connectFirst(chain, endpoints, connectTimeoutMs, abort.signal, logger).then(
      (api) => {
        this.#options.observer?.connected(chain, api);
        return this.#adopt(entry, api);
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

  /** Evicts least-recently-used idle connections until a new one fits under maxChains. */
  #makeRoom(chain: string): void {
    const { maxChains, logger } = this.#options;
    while (this.#entries.size >= maxChains) {
      let oldest: Entry | undefined;
      for (const entry of this.#entries.values()) {
        if (entry.leases === 0 && entry.api && (!oldest || entry.lastUsed < oldest.lastUsed)) oldest = entry;
      }
      if (!oldest) {
        logger?.warn({ chain, open: this.#entries.size, maxChains }, 'maxChains exceeded: no idle connection to evict');
        return;
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
function abortable<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Hooks for metrics and /status (see PoolOptions.observer). */
export interface PoolObserver {
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
