import type { Logger } from 'pino';
import { polkadotApi, type ApiPromise } from '../sdk';
import { ProviderUnavailableError } from '../errors';

const noop = (): void => undefined;

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Opens one ApiPromise on a single endpoint, or fails within `budgetMs`. The provider is
 * created without auto-connect (`autoConnectMs = false`): polkadot.js otherwise retries
 * forever. Whatever the outcome short of success, the attempt is disconnected so no
 * socket stays open or half-open behind us.
 */
function openEndpoint(url: string, budgetMs: number, signal: AbortSignal): Promise<ApiPromise> {
  return new Promise<ApiPromise>((resolve, reject) => {
    let provider: InstanceType<typeof polkadotApi.WsProvider>;
    let api: ApiPromise;
    try {
      provider = new polkadotApi.WsProvider(url, false);
      api = new polkadotApi.ApiPromise({ provider, noInitWarn: true });
    } catch (error) {
      reject(error);
      return;
    }

    let done = false;
    const unsubscribe: Array<() => void> = [];
    const timer = setTimeout(() => fail(new Error(`no ready answer within ${budgetMs} ms`)), budgetMs);
    const settle = (): boolean => {
      if (done) return false;
      done = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      unsubscribe.forEach((off) => off());
      return true;
    };
    function fail(error: unknown): void {
      if (!settle()) return;
      // Closes the socket whatever its state (connecting sockets are aborted).
      api.disconnect().catch(noop);
      reject(error);
    }
    function onAbort(): void {
      fail(signal.reason);
    }

    if (signal.aborted) {
      fail(signal.reason);
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    unsubscribe.push(
      provider.on('error', (error: unknown) => fail(new Error(`socket error: ${message(error)}`))),
      provider.on('disconnected', () => fail(new Error('connection closed before the API was ready'))),
    );
    api.isReadyOrError.then(
      () => {
        if (settle()) resolve(api);
      },
      (error: unknown) => fail(error),
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
  logger?: Logger,
): Promise<ApiPromise> {
  const deadline = Date.now() + timeoutMs;
  const tried: string[] = [];
  let lastReason = 'no endpoints configured';
  for (const [index, url] of endpoints.entries()) {
    const left = deadline - Date.now();
    if (left <= 0 || signal.aborted) break;
    tried.push(url);
    const budget = Math.max(1, Math.floor(left / (endpoints.length - index)));
    try {
      return await openEndpoint(url, budget, signal);
    } catch (error) {
      lastReason = message(error);
      logger?.warn({ chain, endpoint: url, reason: lastReason }, 'chain endpoint failed');
    }
  }
  if (signal.aborted) lastReason = message(signal.reason);
  else if (tried.length < endpoints.length) lastReason = `no endpoint ready within ${timeoutMs} ms (last: ${lastReason})`;
  throw new ProviderUnavailableError(chain, tried, lastReason);
}
