// The request a router call runs for, as the router patches see it (./patches/router-*.ts): the
// chain clients xcm-router creates are handed to the current scope (src/chains/engine-scope.ts
// implements it). Outside a scope the SDK's clients are left as the SDK makes them.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ApiPromise, WsProvider } from '@polkadot/api';
import { outsideCustomAssets } from './custom-assets';
import type { PapiClient } from './papi';

export interface EngineClients {
  /** A polkadot.js client for `chain`, borrowed from our pool. */
  borrow(chain: string, urls: readonly string[]): Promise<ApiPromise>;
  /** A polkadot-api client, closed when the request ends. */
  papiClient(chain: string, urls: string | string[]): PapiClient;
  /** A WsProvider the router created itself: closed when the request ends. */
  track(provider: WsProvider): void;
}

const scopes = new AsyncLocalStorage<EngineClients>();

/** The scope of the router call in progress, if any. */
export const currentEngineScope = (): EngineClients | undefined => scopes.getStore();

/** Runs `work` (router work) in `scope`. */
export const inEngineScope = <T>(scope: EngineClients, work: () => T): T => scopes.run(scope, work);

/**
 * Runs `work` outside any request scope (this router scope and the request's custom assets): for
 * connections shared by many requests, whose callbacks must not run as one request's.
 */
export const outsideEngineScopes = <T>(work: () => T): T => scopes.exit(() => outsideCustomAssets(work));
