// On whose behalf chain work runs. The HTTP layer names the client of each request (its API key,
// else its address, as the rate limits count it); watches run their follow work and deliveries on
// behalf of their owner. A connection to endpoints that are not the operator's (CHAIN_ENDPOINTS,
// else the registry's) was named by that client (`options.apiOverrides`, `?endpoint=`) and counts
// against its budget in the pool, apart from the shared connections (pool.ts); the names a client
// has resolved at once are bounded the same way (address-guard.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { sdk } from '../sdk';
import { distinctEndpoints } from './endpoint';

const clients = new AsyncLocalStorage<string>();

/** Work run outside any request (start-up, tests of the services): one client for all of it. */
const UNNAMED_CLIENT = 'unnamed';

/** Runs `work` (and everything it starts) on behalf of `client`. */
export const asClient = <T>(client: string, work: () => T): T => clients.run(client, work);

/** The client of the work in progress (`unnamed` outside any request). */
export const currentClient = (): string => clients.getStore() ?? UNNAMED_CLIENT;

/** The operator's own work, done for everyone (dialling a shared connection): no client's. */
const SHARED_WORK = '\0shared';

/** Runs `work` as the operator's own: its name lookups count against no client. */
export const asSharedWork = <T>(work: () => T): T => clients.run(SHARED_WORK, work);

/** The client whose lookup bound the work in progress spends; undefined for shared work. */
export const lookupClient = (): string | undefined => {
  const client = currentClient();
  return client === SHARED_WORK ? undefined : client;
};

const registry = new Map<string, string | undefined>();

/** The registry's endpoints of `chain` in pool-key form, or undefined for a chain it does not list. */
function registryKey(chain: string): string | undefined {
  if (!registry.has(chain)) {
    let key: string | undefined;
    try {
      key = distinctEndpoints(sdk.getChainProviders(chain as Exclude<(typeof sdk.CHAINS)[number], 'Ethereum'>)).join(' ');
    } catch {
      key = undefined;
    }
    registry.set(chain, key);
  }
  return registry.get(chain);
}

/**
 * Who named `endpoints` for `chain`: undefined when they are exactly the shared ones (in their
 * order: what a request that names none dials), else the client of the work in progress. The
 * shared ones are the operator's (`operator`, CHAIN_ENDPOINTS) for a chain it lists, else the
 * registry's. A subset or reordering of them is the client's, so no spelling of them adds
 * connections to the shared side.
 */
export function namedBy(chain: string, endpoints: readonly string[], operator: Readonly<Record<string, readonly string[]>> = {}): string | undefined {
  const shared = Object.hasOwn(operator, chain) ? distinctEndpoints(operator[chain]!).join(' ') : registryKey(chain);
  if (endpoints.join(' ') === shared) return undefined;
  return currentClient();
}
