import type { Logger } from 'pino';
import { polkadotApi, type ApiPromise } from '../sdk';
import { ChainResponseError, ProviderUnavailableError } from '../errors';
import { quote, type AddressGuard } from './address-guard';
import { describeSocketError, headersFor, isFrameFailure, type SocketContext } from './chain-socket';
import type { Slots } from './slots';

const noop = (): void => undefined;

const message = (error: unknown): string => (error instanceof Error ? error.message : describeSocketError(error));

/** What every dial shares: the address policy, the frame bound and the metadata decode slots. */
export interface DialOptions {
  guard: AddressGuard;
  maxFrameBytes: number;
  /** Bounds how many new connections decode metadata at once (it is CPU and memory heavy). */
  decodeSlots: Slots;
}

/** An open connection and the context its socket reports into. */
export interface Connection {
  api: ApiPromise;
  context: SocketContext;
}

/**
 * Opens one ApiPromise on a single endpoint, or fails within `budgetMs`. The provider is
 * created without auto-connect (`autoConnectMs = false`): polkadot.js otherwise retries
 * forever. The socket is opened first; the ApiPromise (which fetches and decodes the
 * metadata) is only created once a decode slot is free. Whatever the outcome short of
 * success, the attempt is disconnected so no socket stays open or half-open behind us.
 */
function openEndpoint(chain: string, url: string, budgetMs: number, signal: AbortSignal, dial: DialOptions, attempt: { context?: SocketContext }): Promise<Connection> {
  const context: SocketContext = { chain, guard: dial.guard, maxFrameBytes: dial.maxFrameBytes };
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
    const unsubscribe: Array<() => void> = [];
    const timer = setTimeout(() => fail(new Error(`no ready answer within ${budgetMs} ms`)), budgetMs);
    const settle = (): boolean => {
      if (done) return false;
      done = true;
      clearTimeout(timer);
      releaseSlot();
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
    const decode = (): void => {
      if (done || api) return;
      dial.decodeSlots.acquire(signal).then(
        (release) => {
          if (done) {
            release();
            return;
          }
          releaseSlot = release;
          api = new polkadotApi.ApiPromise({ provider, noInitWarn: true });
          api.isReadyOrError.then(
            (ready) => {
              if (settle()) resolve({ api: ready, context });
            },
            (error: unknown) => fail(error),
          );
        },
        (error: unknown) => fail(error),
      );
    };

    if (signal.aborted) {
      fail(signal.reason);
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    unsubscribe.push(
      provider.on('error', (error: unknown) => fail(new Error(`socket error: ${describeSocketError(error)}`))),
      provider.on('disconnected', () => fail(new Error(`connection closed before the API was ready${context.lastFailure ? `: ${context.lastFailure}` : ''}`))),
      provider.on('connected', decode),
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
