// On whose behalf chain work runs. The HTTP layer names the client of each request (its API key,
// else its address, as the rate limits count it); a connection to endpoints that are not the
// registry's was named by that client (`options.apiOverrides`, `?endpoint=`) and counts against
// its budget in the pool, apart from the registry's connections (pool.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { sdk } from '../sdk';
import { distinctEndpoints } from './endpoint';

const clients = new AsyncLocalStorage<string>();

/** Work run outside any request (start-up, tests of the services): one client for all of it. */
const UNNAMED_CLIENT = 'unnamed';

/** Runs `work` (and everything it starts) on behalf of `client`. */
export const asClient = <T>(client: string, work: () => T): T => clients.run(client, work);

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
 * Who named `endpoints` for `chain`: undefined when they are exactly the registry's (in its
 * order: what the SDK dials without overrides), else the client of the work in progress. A
 * subset or reordering of the registry's endpoints is the client's too, so no spelling of them
 * adds connections to the registry's side.
 */
export function namedBy(chain: string, endpoints: readonly string[]): string | undefined {
  if (endpoints.join(' ') === registryKey(chain)) return undefined;
  return clients.getStore() ?? UNNAMED_CLIENT;
}
