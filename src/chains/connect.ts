import type { Logger } from 'pino';
import { apiOnSharedRuntime, askEachReadOncePerQuery, askMetadata, askRuntime, NodeAnswers, polkadotApi, type ApiPromise } from '../sdk';
import { ChainResponseError, ProviderUnavailableError, TooManyDecodesError } from '../errors';
import { AddressGuard, quote } from './address-guard';
import { describeSocketError, headersFor, isFrameFailure, type SocketContext } from './chain-socket';
import type { RuntimeCache } from './runtime-cache';
import type { SharedRuntimes } from './shared-runtimes';
import type { Slots } from './slots';

const noop = (): void => undefined;

const message = (error: unknown): string => (error instanceof Error ? error.message : describeSocketError(error));

/** What every dial shares: the address policy, the frame bound and the metadata decode slots. */
export interface DialOptions {
  guard: AddressGuard;
  maxFrameBytes: number;
  /** Bounds how many new connections decode metadata at once (it is CPU and memory heavy); waiting on a node holds none. */
  decodeSlots: Slots;
  /** Endpoints the operator configured (CHAIN_ENDPOINTS, normalised): dialled whatever their address. */
  operatorEndpoints?: ReadonlySet<string>;
  /**
   * Decoded runtimes shared between connections: a dial that `offer`s (the registry's) shares its
   * runtime once ready; one that `take`s (a client's) reuses a shared runtime its node runs, else
   * one decoded from the same answers (`cache`), else decodes one there. `spend` counts a decode
   * against the budget of the client that named the endpoints (throws TooManyDecodesError when it
   * is spent; a no-op for the registry's).
   */
  runtimes?: { shared: SharedRuntimes; cache: RuntimeCache; role: 'offer' | 'take'; spend: () => void };
}

/** Where a connection's decoded runtime comes from: its own decode, a registry connection's, or an earlier decode of the same answers. */
export type RuntimeOrigin = 'decoded' | 'shared' | 'cached';

/** The operator chose its own endpoints (loopback ones, for the sandbox): no address is refused. */
const OPERATOR_GUARD = new AddressGuard(true);

/** An open connection and the context its socket reports into. */
export interface Connection {
  api: ApiPromise;
  context: SocketContext;
  runtime: RuntimeOrigin;
  /** Resolves when the connection is not to be lent any more (its node moved to another runtime); a connection that follows upgrades itself never resolves it. */
  retired: Promise<void>;
}

/** The RPC calls whose answer is the runtime metadata: what polkadot.js decodes once it arrives. */
const isMetadataCall = (method: string, params: unknown): boolean =>
  method === 'state_getMetadata' || (method === 'state_call' && Array.isArray(params) && params[0] === 'Metadata_metadata_at_version');

type Send = (method: string, params: unknown[], ...rest: unknown[]) => Promise<unknown>;

/**
 * The api for a connected provider. A registry dial decodes its own (polkadot.js follows its
 * runtime upgrades). A client's dial asks its node what polkadot.js would, then makes its api on
 * a shared runtime: a registry connection's when its node runs that runtime, else the one those
 * very answers decode to (kept, or decoded now). Such an api is retired once its node announces
 * another runtime (`upgradeOf`): it would decode with the old one.
 */
async function apiFor(provider: InstanceType<typeof polkadotApi.WsProvider>, dial: DialOptions): Promise<{ api: ApiPromise; runtime: RuntimeOrigin; shared: boolean }> {
  const runtimes = dial.runtimes;
  const fresh = () => {
    runtimes?.spend();
    return { api: new polkadotApi.ApiPromise({ provider, noInitWarn: true }), runtime: 'decoded' as const, shared: false };
  };
  if (runtimes?.role !== 'take') return fresh();
  const node = provider as unknown as { send: Send };
  const send = (method: string, params: unknown[]): Promise<unknown> => node.send(method, params);
  const answers = new NodeAnswers(send);
  const runtime = await askRuntime(answers);
  // Answers of another shape: polkadot.js reads them its own way, and fails as it would.
  if (!runtime) return fresh();
  const source = runtimes.shared.sourceFor(runtime);
  if (source) return { api: apiOnSharedRuntime(source, provider), runtime: 'shared', shared: true };
  await askMetadata(answers, runtime.apis);
  const { api: decoded, decoded: own } = await runtimes.cache.runtimeFor(answers, send, runtimes.spend);
  return { api: apiOnSharedRuntime(decoded, provider), runtime: own ? 'decoded' : 'cached', shared: true };
}

/**
 * Resolves once the node of an api on a shared runtime announces another runtime version: the api
 * would decode with the old one, and never changes the runtime it shares, so its owner retires it
 * (requests in flight finish; the next one dials afresh). The subscription has no error handler,
 * as polkadot.js's own has not: a version that does not decode ends the connection through the
 * containment (containment.ts, path 2).
 */
function upgradeOf(api: ApiPromise): Promise<void> {
  const specVersion = api.runtimeVersion.specVersion.toNumber();
  return new Promise((resolve) => {
    const subscription = api.rx.rpc.state.subscribeRuntimeVersion().subscribe((version) => {
      if (version.specVersion.toNumber() === specVersion) return;
      subscription.unsubscribe();
      resolve();
    });
  });
}

/**
 * Makes the provider hand polkadot.js a metadata answer only once `take` has a decode slot for
 * it. polkadot.js asks for the metadata last while it connects (after the genesis hash, runtime
 * version, chain name, properties and RPC methods) and decodes it as soon as it arrives, with no
 * other node call before it is ready: from that answer to ready is decoding, nothing is awaited
 * from the node. A node that is slow or silent therefore never holds a slot. A second metadata
 * call (polkadot.js falls back to `state_getMetadata` when the runtime call's bytes do not decode)
 * gives the slot back while it waits on the node.
 */
function gateMetadataAnswers(provider: { send: Send }, take: () => Promise<void>, giveBack: () => void): void {
  const send = provider.send.bind(provider);
  provider.send = async (method, params, ...rest) => {
    if (!isMetadataCall(method, params)) return send(method, params, ...rest);
    giveBack();
    const result = await send(method, params, ...rest);
    await take();
    return result;
  };
}

/**
 * Opens one ApiPromise on a single endpoint, or fails within `budgetMs`. The provider is
 * created without auto-connect (`autoConnectMs = false`): polkadot.js otherwise retries
 * forever. The metadata is fetched freely; decoding it waits for a decode slot
 * (`gateMetadataAnswers`), held until the api is ready or the attempt ends. Whatever the outcome
 * short of success, the attempt is disconnected so no socket stays open or half-open behind us.
 */
function openEndpoint(chain: string, url: string, budgetMs: number, signal: AbortSignal, dial: DialOptions, attempt: { context?: SocketContext }): Promise<Connection> {
  const guard = dial.operatorEndpoints?.has(url) ? OPERATOR_GUARD : dial.guard;
  const context: SocketContext = { chain, guard, maxFrameBytes: dial.maxFrameBytes };
  attempt.context = context;
  return new Promise<Connection>((resolve, reject) => {
    let provider: InstanceType<typeof polkadotApi.WsProvider>;
    try {
      provider = new polkadotApi.WsProvider(url, false, headersFor(context));
    } catch (error) {
      reject(error);
      return;
    }

    let api: ApiPromise | undefined;
    let releaseSlot = noop;
    let done = false;
    // Ends a wait for a decode slot when the attempt ends (deadline, failure, abort).
    const attemptOver = new AbortController();
    const unsubscribe: Array<() => void> = [];
    const timer = setTimeout(() => fail(new Error(`no ready answer within ${budgetMs} ms`)), budgetMs);
    const giveBack = (): void => {
      releaseSlot();
      releaseSlot = noop;
    };
    const settle = (): boolean => {
      if (done) return false;
      done = true;
      clearTimeout(timer);
      giveBack();
      attemptOver.abort(new Error('the connect attempt ended'));
      signal.removeEventListener('abort', onAbort);
      unsubscribe.forEach((off) => off());
      return true;
    };
    function fail(error: unknown): void {
      if (!settle()) return;
      // Closes the socket whatever its state (connecting sockets are aborted).
      (api ? api.disconnect() : provider.disconnect()).catch(noop);
      reject(error);
    }
    function onAbort(): void {
      fail(signal.reason);
    }
    const take = async (): Promise<void> => {
      // Once connected, a runtime upgrade's metadata is decoded without a slot, as before.
      if (done) return;
      const release = await dial.decodeSlots.acquire(attemptOver.signal);
      if (done) release();
      else releaseSlot = release;
    };
    gateMetadataAnswers(provider as unknown as { send: Send }, take, giveBack);
    askEachReadOncePerQuery(provider as unknown as { send: Send });
    let started = false;
    const start = (): void => {
      if (done || started) return;
      started = true;
      apiFor(provider, dial).then(({ api: made, runtime, shared }) => {
        api = made;
        if (done) {
          made.disconnect().catch(noop);
          return;
        }
        made.isReadyOrError.then(
          (ready) => {
            if (!settle()) return;
            if (!shared && dial.runtimes?.role === 'offer') dial.runtimes.shared.offer(ready);
            resolve({ api: ready, context, runtime, retired: shared ? upgradeOf(ready) : new Promise<void>(noop) });
          },
          (error: unknown) => fail(error),
        );
      }, fail);
    };

    if (signal.aborted) {
      fail(signal.reason);
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    unsubscribe.push(
      provider.on('error', (error: unknown) => fail(new Error(`socket error: ${describeSocketError(error)}`))),
      provider.on('disconnected', () => fail(new Error(`connection closed before the API was ready${context.lastFailure ? `: ${context.lastFailure}` : ''}`))),
      provider.on('connected', start),
    );
    provider.connect().catch(fail);
  });
}

/**
 * Connects to the first endpoint that answers, in order, within `timeoutMs` overall.
 * Each endpoint gets an equal share of the time left, so a black hole listed first cannot
 * starve a good endpoint listed after it; a fast failure hands its time on.
 */
export async function connectFirst(
  chain: string,
  endpoints: readonly string[],
  timeoutMs: number,
  signal: AbortSignal,
  dial: DialOptions,
  logger?: Logger,
): Promise<Connection> {
  const deadline = Date.now() + timeoutMs;
  const tried: string[] = [];
  const failures: { endpoint: string; reason: string }[] = [];
  let lastReason = 'no endpoints configured';
  let lastWasBadFrame = false;
  for (const [index, url] of endpoints.entries()) {
    const left = deadline - Date.now();
    if (left <= 0 || signal.aborted) break;
    // Endpoints in messages and logs: at most 200 characters of each.
    tried.push(quote(url));
    const budget = Math.max(1, Math.floor(left / (endpoints.length - index)));
    const attempt: { context?: SocketContext } = {};
    try {
      return await openEndpoint(chain, url, budget, signal, dial, attempt);
    } catch (error) {
      // The client's decodes are spent: every endpoint of its would need one; say so, as a 429.
      if (error instanceof TooManyDecodesError) throw error;
      lastReason = message(error);
      lastWasBadFrame = isFrameFailure(attempt.context?.lastFailure);
      failures.push({ endpoint: quote(url), reason: lastReason });
    }
  }
  let failure: Error | undefined;
  if (signal.aborted) lastReason = message(signal.reason);
  // The node answered, but with frames we cannot use: a bad gateway, not an unreachable one.
  else if (lastWasBadFrame && tried.length === endpoints.length) failure = new ChainResponseError(chain, `sent a frame this service cannot use (${lastReason})`);
  else if (tried.length < endpoints.length) lastReason = `no endpoint ready within ${timeoutMs} ms (last: ${lastReason})`;
  failure ??= new ProviderUnavailableError(chain, tried, lastReason);
  // One line per dial, whatever the number of endpoints; a dial called off (pool closed,
  // connection evicted) failed nobody.
  logger?.[signal.aborted ? 'debug' : 'warn']({ chain, reason: lastReason, endpoints: failures }, 'chain dial failed');
  throw failure;
}
