// On whose behalf the work in progress runs (clients.ts says how clients are named and what they
// are counted for). Apart from clients.ts, which reads the registry, so that what only asks whose
// work it is (turns.ts, loaded with the chain sockets) does not load the SDK.
import { AsyncLocalStorage } from 'node:async_hooks';

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
