// On whose behalf chain work runs. The HTTP layer names the client of each request (its API key,
// else its address, as the rate limits count it); watches run their follow work and deliveries on
// behalf of their owner. A connection to endpoints that are not the operator's (CHAIN_ENDPOINTS,
// else the registry's) was named by that client (`options.apiOverrides`, `?endpoint=`) and counts
// against its budget in the pool, apart from the shared connections (pool.ts); the names a client
// has resolved at once are bounded the same way (address-guard.ts).
import { sdk } from '../sdk';
import { currentClient } from './client-context';
import { distinctEndpoints } from './endpoint';

export { asClient, asSharedWork, currentClient, lookupClient } from './client-context';

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
