import type { Logger } from 'pino';
import { outsideEngineScopes, type ApiPromise } from '../sdk';
import { ProviderUnavailableError } from '../errors';
import { AddressGuard, quote } from './address-guard';
import { DEFAULT_MAX_FRAME_BYTES, type SocketContext } from './chain-socket';
import { asSharedWork, currentClient } from './clients';
import { connectFirst, type Connection, type DialOptions, type RuntimeOrigin } from './connect';
import { DecodeBudget } from './decode-budget';
import { RuntimeCache } from './runtime-cache';
import { SharedRuntimes } from './shared-runtimes';
import { distinctEndpoints } from './endpoint';
import { protectApi } from './protect';
import { Slots } from './slots';

export interface PoolOptions {
  /** Bound on one whole connect (all endpoints, failover included). */
  connectTimeoutMs: number;
  /** How long a connection nobody borrows stays open. */
  idleTimeoutMs: number;
  /**
   * How long a connection to endpoints a client named stays open once nobody borrows it (default
   * idleTimeoutMs; never longer): short, so what a client's requests and streams opened at its nodes
   * is gone soon after it leaves, yet its back-to-back requests share one connection.
   */
  clientIdleTimeoutMs?: number;
  /**
   * Cap on connections open or opening; idle ones are evicted, least recently used first. When
   * every one is in use, a request for another is refused at once (503), not queued.
   */
  maxChains: number;
  /**
   * Bounds on connections to endpoints a client named, which never count against maxChains and
   * never evict a registry connection (default DEFAULT_CLIENT_BUDGET).
   */
  clientBudget?: ClientBudget;
  /**
   * Who named a connection's endpoints: undefined for the registry's (maxChains), else the
   * client whose budget it counts against (default: every connection is the registry's).
   */
  namedBy?: (chain: string, endpoints: readonly string[]) => string | undefined;
  /** Which addresses may be dialled (default: any, for tests and private deployments). */
  guard?: AddressGuard;
  /** The operator's own endpoints (CHAIN_ENDPOINTS): the guard does not apply to them. */
  operatorEndpoints?: readonly string[];
  /** Largest frame accepted from a node (default 16 MiB). */
  maxFrameBytes?: number;
  /** New connections decoding metadata at once (default 2). */
  maxDecoding?: number;
  /** Metadata decodes per minute a client's connections may cause (decode-budget.ts; default and 0: no bound). */
  decodesPerClientPerMinute?: number;
  logger?: Logger;
  /** Told about borrows and connect outcomes (metrics, /status); must not throw. */
  observer?: PoolObserver;
}

/**
 * Connections to endpoints clients named (apiOverrides, ?endpoint=), open or connecting. A host is
 * `hostname[:port]`: every path on one host counts as that host.
 */
export interface ClientBudget {
  /** All clients together: what bounds their memory. */
  total: number;
  perClient: number;
  /** All clients together, per host. */
  perHost: number;
}

export const DEFAULT_CLIENT_BUDGET: ClientBudget = { total: 8, perClient: 4, perHost: 4 };

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
  /** The client that named the endpoints; undefined for the registry's. */
  readonly client?: string;
  /** The hosts of the endpoints (hostname[:port]). */
  readonly hosts: readonly string[];
  /** Settles once: the protected api and its socket context, or the connect failure. */
  readonly ready: Promise<{ api: ApiPromise; context: SocketContext }>;
  /** Cancels the connect attempt (pool closing, entry evicted while connecting). */
  readonly abort: AbortController;
  api?: ApiPromise;
  leases: number;
  lastUsed: number;
  idleTimer?: NodeJS.Timeout;
  /** Taken out of the pool while lent (its node moved to another runtime): closed once its last borrower is done. */
  retired?: boolean;
}

const noop = (): void => undefined;

/** A budget that is spent: what it is called and which entries count against it. */
interface SpentBudget {
  readonly what: string;
  readonly counts: (entry: Entry) => boolean;
}

/**
 * One ApiPromise per endpoint set, shared by every request. Concurrent acquires during a
 * connect wait on the same attempt; failed attempts are not cached.
 *
 * Two sides: the registry's endpoints (the operator's, shared by every client, at most maxChains,
 * the least recently used idle one evicted to make room), and endpoints a client named, one set of
 * connections per client, bounded by ClientBudget. A client's connect makes room by closing the
 * least recently used idle connection that counts against every budget it finds spent, whoever
 * named it: only connections in use or connecting hold a place against other clients. With none
 * idle it is refused (503); a connection in use is never touched.
 */
export class ConnectionPool {
  readonly #options: PoolOptions;
  readonly #entries = new Map<string, Entry>();
  readonly #dial: DialOptions;
  /** The registry's connections share their decoded runtime with clients' connections to the same runtime. */
  readonly #runtimes = new SharedRuntimes();
  /** Runtimes decoded from clients' nodes' answers, kept for connections whose nodes answer the same. */
  readonly #decoded = new RuntimeCache();
  readonly #decodes: DecodeBudget;
  readonly #budget: ClientBudget;
  #closed = false;

  constructor(options: PoolOptions) {
    // Every line the pool writes names where it comes from, as the chain clients' lines do.
    this.#options = { ...options, logger: options.logger?.child({ origin: 'chains' }) };
    this.#dial = {
      guard: options.guard ?? new AddressGuard(true),
      maxFrameBytes: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
      decodeSlots: new Slots(options.maxDecoding ?? 2),
      operatorEndpoints: new Set(distinctEndpoints(options.operatorEndpoints ?? [])),
    };
    this.#budget = options.clientBudget ?? DEFAULT_CLIENT_BUDGET;
    this.#decodes = new DecodeBudget(options.decodesPerClientPerMinute ?? 0);
  }

  /** The address policy every connection of this pool obeys. */
  get guard(): AddressGuard {
    return this.#dial.guard;
  }

  /** Largest frame a connection accepts from a node. */
  get maxFrameBytes(): number {
    return this.#dial.maxFrameBytes;
  }

  /** Connections open or opening, the registry's and those clients named. */
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
    return this.#borrow(chain, urls, signal, false);
  }

  /**
   * Borrows a connection for chain work a client's request causes beyond the chains it asked for
   * (the chains an explanation's Transacts run on): the shared connection when it is open or
   * connecting already (it costs nothing more), else one of the client's own, counted against its
   * budget as an endpoint it named would be, which makes room only by closing the client's own idle
   * connections, never a shared one or another client's. Refused (OwnBudgetSpentError) when a
   * budget is spent by others or by the client's connections in use.
   */
  async acquireOwn(chain: string, urls: readonly string[], signal?: AbortSignal): Promise<Lease> {
    return this.#borrow(chain, urls, signal, true);
  }

  async #borrow(chain: string, urls: readonly string[], signal: AbortSignal | undefined, own: boolean): Promise<Lease> {
    const endpoints = distinctEndpoints(urls);
    if (this.#closed) throw new ProviderUnavailableError(chain, endpoints.map((e) => quote(e)), 'the connection pool is closed');
    if (endpoints.length === 0) throw new ProviderUnavailableError(chain, endpoints, 'no endpoints configured');
    signal?.throwIfAborted();

    const shared = endpoints.join(' ');
    const client = this.#options.namedBy?.(chain, endpoints) ?? (own && !this.#entries.has(shared) ? currentClient() : undefined);
    const key = client === undefined ? shared : `${client} ${shared}`;
    const entry = this.#entries.get(key) ?? this.#open(key, chain, endpoints, client, own);
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
    this.#decoded.clear();
  }

  /** The registry's endpoints, or the operator's (CHAIN_ENDPOINTS): what describes its runtime truly. */
  #trusted(client: string | undefined, endpoints: readonly string[]): boolean {
    return client === undefined || endpoints.every((url) => this.#dial.operatorEndpoints?.has(url));
  }

  #open(key: string, chain: string, endpoints: readonly string[], client: string | undefined, ownRoomOnly: boolean): Entry {
    const hosts = [...new Set(endpoints.map((endpoint) => new URL(endpoint).host))];
    if (client === undefined) this.#makeRoom(chain);
    else this.#makeClientRoom(chain, client, hosts, ownRoomOnly);
    const abort = new AbortController();
    const { connectTimeoutMs, logger } = this.#options;
    // A shared connection belongs to no request: dial it outside the request's engine scope, and
    // a registry one as nobody's (its name lookups are no client's).
    const runtimes = {
      shared: this.#runtimes,
      cache: this.#decoded,
      role: this.#trusted(client, endpoints) ? ('offer' as const) : ('take' as const),
      spend: () => {
        if (client !== undefined) this.#decodes.spend(client);
      },
    };
    const dial = (): Promise<Connection> => connectFirst(chain, endpoints, connectTimeoutMs, abort.signal, { ...this.#dial, runtimes }, logger);
    const ready = outsideEngineScopes(() => (client === undefined ? asSharedWork(dial) : dial())).then(
      ({ api, context, runtime, retired }) => {
        this.#options.observer?.connected(chain, api, runtime);
        const adopted = this.#adopt(entry, api);
        void retired.then(() => this.#retire(entry));
        return { api: adopted, context };
      },
      (error: unknown) => {
        this.#options.observer?.failed(chain, error);
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
        throw error;
      },
    );
    // Waiters see the rejection through their own await; this only stops an unhandled one.
    ready.catch(noop);
    const entry: Entry = { key, chain, endpoints, client, hosts, ready, abort, leases: 0, lastUsed: Date.now() };
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
    if (entry.leases > 0 || !entry.api) return;
    if (this.#entries.get(entry.key) === entry) this.#startIdle(entry);
    else if (entry.retired) void this.#shut(entry, 'its node moved to another runtime');
  }

  /** Lends the connection no more (the next borrower dials afresh); closes it once its borrowers are done. */
  #retire(entry: Entry): void {
    if (this.#entries.get(entry.key) !== entry) return;
    this.#options.logger?.debug({ chain: entry.chain }, 'retiring a chain connection: its node moved to another runtime');
    this.#entries.delete(entry.key);
    entry.retired = true;
    if (entry.leases === 0) void this.#shut(entry, 'its node moved to another runtime');
  }

  #startIdle(entry: Entry): void {
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      if (entry.leases > 0 || this.#entries.get(entry.key) !== entry) return;
      this.#options.logger?.debug({ chain: entry.chain }, 'closing idle chain connection');
      this.#entries.delete(entry.key);
      void this.#shut(entry, 'the connection was idle');
    }, this.#idleTimeout(entry));
    // An idle connection alone should not keep the process alive.
    entry.idleTimer.unref();
  }

  /** A shared connection waits idleTimeoutMs for its next borrower; one a client named, its own shorter time. */
  #idleTimeout(entry: Entry): number {
    const { idleTimeoutMs, clientIdleTimeoutMs = idleTimeoutMs } = this.#options;
    return entry.client === undefined ? idleTimeoutMs : Math.min(idleTimeoutMs, clientIdleTimeoutMs);
  }

  /**
   * Evicts least-recently-used idle registry connections until a new one fits under maxChains;
   * with every one in use or connecting, refuses the new one at once.
   */
  #makeRoom(chain: string): void {
    const { maxChains, logger } = this.#options;
    const registry = (entry: Entry): boolean => entry.client === undefined;
    while (this.#count(registry) >= maxChains) {
      const oldest = this.#oldestIdle(registry);
      if (!oldest) {
        logger?.warn({ chain, open: this.#count(registry), maxChains }, 'maxChains reached: every connection is in use or connecting');
        throw new ProviderUnavailableError(chain, [], `${maxChains} chain connections (MAX_CHAINS) are in use or connecting; try again shortly`, 1);
      }
      this.#evict(oldest, chain);
    }
  }

  /**
   * Makes room for a connection `client` named to `hosts`: while a budget it would count against
   * is spent, evicts the least-recently-used idle connection that counts against every spent one
   * (the client's own for its own budget, anyone's for the total and a host's, only the client's
   * own with `ownRoomOnly`); refuses at once when there is none.
   */
  #makeClientRoom(chain: string, client: string, hosts: readonly string[], ownRoomOnly: boolean): void {
    const { total, perClient, perHost } = this.#budget;
    const named = (entry: Entry): boolean => entry.client !== undefined;
    for (;;) {
      const spent: SpentBudget[] = [];
      if (this.#count(named) >= total) spent.push({ what: `${total} connections to endpoints clients named (MAX_OVERRIDE_CONNECTIONS)`, counts: named });
      const own = (entry: Entry): boolean => entry.client === client;
      if (this.#count(own) >= perClient) spent.push({ what: `${perClient} connections to endpoints this client named (MAX_OVERRIDE_CONNECTIONS_PER_CLIENT)`, counts: own });
      for (const host of hosts) {
        const onHost = (entry: Entry): boolean => named(entry) && entry.hosts.includes(host);
        if (this.#count(onHost) >= perHost) spent.push({ what: `${perHost} connections to ${quote(host, 100)} (MAX_OVERRIDE_CONNECTIONS_PER_HOST)`, counts: onHost });
      }
      if (spent.length === 0) return;
      const oldest = this.#oldestIdle((entry) => (!ownRoomOnly || own(entry)) && spent.every((budget) => budget.counts(entry)));
      if (!oldest && ownRoomOnly) throw new OwnBudgetSpentError(chain, spent[0].what);
      if (!oldest) {
        this.#options.logger?.warn({ chain, budget: spent[0].what }, 'client connection budget spent: its connections are in use or connecting');
        throw new ProviderUnavailableError(chain, [], `${spent[0].what} are in use or connecting; try again shortly`, 1);
      }
      this.#evict(oldest, chain);
    }
  }

  #count(matches: (entry: Entry) => boolean): number {
    let count = 0;
    for (const entry of this.#entries.values()) if (matches(entry)) count++;
    return count;
  }

  /** The least recently used open connection nobody borrows among those that match. */
  #oldestIdle(matches: (entry: Entry) => boolean): Entry | undefined {
    let oldest: Entry | undefined;
    for (const entry of this.#entries.values()) {
      if (entry.leases === 0 && entry.api && matches(entry) && (!oldest || entry.lastUsed < oldest.lastUsed)) oldest = entry;
    }
    return oldest;
  }

  #evict(entry: Entry, forChain: string): void {
    this.#options.logger?.debug({ chain: entry.chain, for: forChain }, 'evicting least recently used chain connection');
    this.#entries.delete(entry.key);
    void this.#shut(entry, 'evicted');
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

/** `acquireOwn` refused: dialling would pass `budget`, or close a connection that is not the client's. */
export class OwnBudgetSpentError extends ProviderUnavailableError {
  constructor(
    chain: string,
    readonly budget: string,
  ) {
    super(chain, [], `${budget} are spent, and work a request causes closes only its client's own idle connections`, 1);
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
  /** `runtime`: whether the connect decoded metadata, or reused a decoded runtime. */
  connected(chain: string, api: ApiPromise, runtime: RuntimeOrigin): void;
  failed(chain: string, error: unknown): void;
}

/** What one open or connecting entry looks like from outside (read-only figures). */
export interface PoolEntryStats {
  chain: string;
  state: 'connecting' | 'open';
  leases: number;
}
