import type { ConnectionPool, Lease } from './pool';

/**
 * What one request hands the SDK: `sdk.Builder({ apiOverrides, development: true })`.
 * `release()` returns every connection the SDK borrowed through it.
 */
export interface ChainScope {
  readonly apiOverrides: Record<string, unknown>;
  /**
   * A chain the request's work reaches beyond those it asked for (an explanation's Transact
   * chains): the connection the scope holds already, else borrowed with `pool.acquireOwn` (counted
   * against the client's budget unless the shared one is open).
   */
  own(chain: string): Promise<unknown>;
  /** The connections borrowed so far (to name the chain a failure came from). */
  readonly leases: readonly Lease[];
  /** Every chain asked for so far, borrowed yet or not. */
  chains(): string[];
  release(): void;
}

const noop = (): void => undefined;

/**
 * Routes every chain the SDK touches through the pool. The SDK (PolkadotJsApi.init) reads
 * `apiOverrides[chain]` lazily, also for hop and destination chains (`clone()` reuses the
 * config), and awaits a value that is neither a string nor an array: a Promise of an
 * ApiPromise is that value. A failure (unknown chain, pool error) is the Promise's
 * rejection, which the SDK's `init` propagates to the caller.
 */
export function createChainScope(
  pool: ConnectionPool,
  resolveEndpoints: (chain: string) => readonly string[],
  signal?: AbortSignal,
): ChainScope {
  const apis = new Map<string, Promise<unknown>>();
  const leases: Lease[] = [];
  let released = false;

  const borrow = async (chain: string, own = false): Promise<unknown> => {
    if (released) throw new Error(`chain ${chain} requested after its scope was released`);
    const endpoints = resolveEndpoints(chain);
    const lease = await (own ? pool.acquireOwn(chain, endpoints, signal) : pool.acquire(chain, endpoints, signal));
    // A borrow that lands after release() must not keep the connection leased.
    if (released) lease.release();
    else leases.push(lease);
    return lease.api;
  };

  const apiOverrides = new Proxy<Record<string, unknown>>(
    {},
    {
      get(target, chain) {
        if (typeof chain !== 'string') return Reflect.get(target, chain);
        let api = apis.get(chain);
        if (!api) {
          api = borrow(chain);
          // The SDK also reads the override without awaiting it (in disconnect()); the
          // awaiting reader still sees a rejection, the others must not make it unhandled.
          api.catch(noop);
          apis.set(chain, api);
        }
        return api;
      },
    },
  );

  return {
    apiOverrides,
    own(chain) {
      let api = apis.get(chain);
      if (!api) {
        api = borrow(chain, true);
        apis.set(chain, api);
      }
      return api;
    },
    leases,
    chains: () => [...apis.keys()],
    release() {
      released = true;
      leases.forEach((lease) => lease.release());
    },
  };
}
