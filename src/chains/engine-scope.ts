// xcm-router SDK_VERSION opens chain clients of its own on every call (see the notes on the router):
// polkadot.js clients through sdk-pjs (`createChainClient`), polkadot-api clients through the papi
// SDK (also cached by it, never closed), and Acala/Karura clients with an auto-reconnecting
// WsProvider. None are closed and none give up on an unreachable node. Each router request runs
// in an EngineScope, which the router patches (src/sdk/patches/router-*.ts) find wherever the
// router creates a client: its polkadot.js clients are borrowed from our pool, every other client
// is created here, held to the connect deadline and closed when the request ends, whether it
// answered or ran out of time. Both dial the endpoints the request resolves for the chain (its
// apiOverrides, else CHAIN_ENDPOINTS, else the registry's), not the registry's endpoints the router
// names when it was given no override: the router reaches the chains the rest of the service does.
import type { WsProvider } from '@polkadot/api';
import { inEngineScope, papiModules, sdk, type ApiPromise, type EngineClients, type PapiClient } from '../sdk';
import { ProviderUnavailableError } from '../errors';
import { ChainSocket, describeSocketError, socketContexts, type SocketContext } from './chain-socket';
import type { ConnectionPool, Lease } from './pool';

interface PapiStatus {
  type: number;
  event?: unknown;
}

/** Chains the papi SDK (at SDK_VERSION) talks to through its legacy JSON-RPC enhancer (its LEGACY_CHAINS). */
const PAPI_LEGACY_CHAINS = ['Interlay', 'CrustShadow', 'Kintsugi', 'RobonomicsKusama', 'RobonomicsPolkadot', 'Pendulum'];
const PAPI_CONNECTED = 1;

const noop = (): void => undefined;

export class EngineScope implements EngineClients {
  readonly #pool: ConnectionPool;
  readonly #connectTimeoutMs: number;
  readonly #context: SocketContext;
  readonly #leases: Lease[] = [];
  readonly #closers: Array<() => void> = [];
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #tracked = new WeakSet<WsProvider>();
  readonly #sockets = new Set<ChainSocket>();
  #ended = false;
  #fail: (error: unknown) => void = noop;
  readonly #failed = new Promise<never>((_, reject) => {
    this.#fail = reject;
  });
  #signal?: AbortSignal;
  readonly #endpoints: ((chain: string) => readonly string[]) | undefined;

  /** `endpoints`: where a chain is dialled (the router's own choice of endpoints when absent). */
  constructor(pool: ConnectionPool, connectTimeoutMs: number, endpoints?: (chain: string) => readonly string[]) {
    this.#pool = pool;
    this.#connectTimeoutMs = connectTimeoutMs;
    this.#endpoints = endpoints;
    this.#context = { guard: pool.guard, maxFrameBytes: pool.maxFrameBytes, onSocket: (socket) => this.#adoptSocket(socket) };
    this.#failed.catch(noop);
  }

  /** Connections borrowed from the pool (to name the chain of a failure). */
  get leases(): readonly Lease[] {
    return this.#leases;
  }

  /**
   * Runs router work in this scope. It fails as soon as a client the router opened misses the
   * connect deadline (503), rather than waiting for the request deadline.
   */
  run<T>(work: () => Promise<T>, signal: AbortSignal): Promise<T> {
    this.#signal = signal;
    const running = inEngineScope(this, () => socketContexts.run(this.#context, work));
    running.catch(noop); // abandoned when the scope fails first
    return Promise.race([running, this.#failed]);
  }

  /** Releases borrowed connections and closes every client the router opened in this scope. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#timers.forEach(clearTimeout);
    this.#leases.forEach((lease) => lease.release());
    this.#sockets.forEach((socket) => socket.terminate());
    this.#sockets.clear();
    for (const close of this.#closers.splice(0)) {
      try {
        close();
      } catch {
        // closing a client that already failed
      }
    }
  }

  #adoptSocket(socket: ChainSocket): void {
    if (this.#ended) {
      socket.terminate();
      return;
    }
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
  }

  /**
   * The socket class given to polkadot-api: once the request has ended it hands out a socket that
   * never opens, so the provider's retry loop (which retries at once when a connect attempt
   * fails, even after the client was destroyed) waits on it for ever instead of spinning.
   */
  readonly #socketClass = function (this: EngineScope, uri: string, protocols?: string | string[]): object {
    if (this.#ended) return inertSocket();
    return socketContexts.run(this.#context, () => new ChainSocket(uri, protocols));
  };

  #refuseIfEnded(chain: string): void {
    if (this.#ended) throw new ProviderUnavailableError(chain, [], 'the request this client was opened for has ended');
  }

  async borrow(chain: string, urls: readonly string[]): Promise<ApiPromise> {
    this.#refuseIfEnded(chain);
    const lease = await this.#pool.acquire(chain, this.#endpoints?.(chain) ?? urls, this.#signal);
    if (this.#ended) {
      lease.release();
      this.#refuseIfEnded(chain);
    }
    this.#leases.push(lease);
    return lease.api;
  }

  /** Fails the scope if `isConnected` is still false when the connect deadline passes. */
  #watchConnect(chain: () => string, endpoints: () => readonly string[], isConnected: () => boolean, lastFailure: () => string | undefined): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (this.#ended || isConnected()) return;
      const reason = lastFailure() ?? `no connection within ${this.#connectTimeoutMs} ms`;
      this.#fail(new ProviderUnavailableError(chain(), endpoints(), reason));
    }, this.#connectTimeoutMs);
    timer.unref();
    this.#timers.add(timer);
  }

  papiClient(chain: string, urls: string | string[]): PapiClient {
    this.#refuseIfEnded(chain);
    const endpoints = [...(this.#endpoints?.(chain) ?? (Array.isArray(urls) ? urls : [urls]))];
    const papi = papiModules();
    // Connected means the node answered a request (a socket that opens and says nothing is not).
    let answered = false;
    let failure: string | undefined;
    const socketClass = this.#socketClass.bind(this);
    const provider = papi.getWsProvider(endpoints, {
      // Constructed with `new`: a function that returns an object yields that object.
      websocketClass: function PapiSocket(uri: string, protocols?: string | string[]) {
        let socket: object;
        try {
          socket = socketClass(uri, protocols);
        } catch (error) {
          // A refused address: papi would retry at once, in a loop; wait for the deadline instead.
          failure = describeSocketError(error);
          return inertSocket();
        }
        if (socket instanceof ChainSocket) socket.once('message', () => (answered = true));
        return socket;
      },
      // The connect deadline is ours (#watchConnect); papi's own would start its retry loop.
      timeout: Infinity,
      // Absent, not undefined: papi spreads this over its defaults.
      ...(PAPI_LEGACY_CHAINS.includes(chain) ? { innerEnhancer: papi.withLegacy() } : {}),
      onStatusChanged: (status: PapiStatus) => {
        if (status.type !== PAPI_CONNECTED && status.event) failure = describeSocketError(status.event);
      },
    });
    const client = papi.createClient(PAPI_LEGACY_CHAINS.includes(chain) ? provider : papi.withPolkadotSdkCompat(provider));
    this.#closers.push(() => client.destroy());
    this.#watchConnect(() => chain, () => endpoints, () => answered, () => failure);
    return client;
  }

  /** A WsProvider the router created itself (Acala/Karura): closed at the end, held to the deadline. */
  track(provider: WsProvider): void {
    if (this.#ended) {
      provider.disconnect().catch(noop);
      throw new ProviderUnavailableError('(exchange client)', [], 'the request this client was opened for has ended');
    }
    // An auto-connecting provider calls connect() again on every retry.
    if (this.#tracked.has(provider)) return;
    this.#tracked.add(provider);
    let failure: string | undefined;
    const off = provider.on('error', (error: unknown) => (failure = describeSocketError(error)));
    this.#closers.push(() => {
      off();
      provider.disconnect().catch(noop);
    });
    const endpoint = (): string => provider.endpoint ?? '';
    this.#watchConnect(() => chainOf(endpoint()), () => [endpoint()], () => provider.isConnected, () => failure);
  }
}

/** The registry chain an endpoint belongs to (the router's Acala/Karura clients dial the registry's). */
function chainOf(endpoint: string): string {
  const owner = sdk.CHAINS.find((chain) => chain !== 'Ethereum' && providersOf(chain).includes(endpoint));
  return owner ?? 'an exchange chain';
}

function providersOf(chain: Exclude<(typeof sdk.CHAINS)[number], 'Ethereum'>): string[] {
  try {
    return sdk.getChainProviders(chain);
  } catch {
    return [];
  }
}

/** A WebSocket that never connects and never fires an event. */
function inertSocket(): object {
  return { readyState: 0, addEventListener: noop, removeEventListener: noop, send: noop, close: noop };
}
