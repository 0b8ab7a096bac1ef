// xcm-router, loaded on first use only. The router and what it pulls in (polkadot-api, the
// exchanges' SDKs) cost ~0.5 s and ~35 MB RSS to load; a process that never serves a router
// request must not pay that. Loaded through `require` like the SDK (load.ts), so both share one
// copy of @paraspell/sdk-core and @polkadot/*; its chain clients are routed through request scopes
// (the router-*.ts patches) before it is first used.
import { createRequire } from 'node:module';
import { sdk } from './load';
import { passOmnipoolMaxSlipFee } from './patches/omnipool-math-arity';
import { createRouterPapiClientsInScope } from './patches/router-papi-clients';
import { borrowRouterPjsClientsFromPool } from './patches/router-pjs-clients';
import { trackRouterWsProvidersInScope } from './patches/router-ws-providers';

type XcmRouter = typeof import('@paraspell/xcm-router');

const load = createRequire(__filename);
let loaded: XcmRouter | undefined;

/** Loads @paraspell/xcm-router once, its chain clients routed through request scopes. */
export function loadRouter(): XcmRouter {
  if (loaded) return loaded;
  const router = load('@paraspell/xcm-router') as XcmRouter;
  borrowRouterPjsClientsFromPool(sdk);
  createRouterPapiClientsInScope(load('@paraspell/sdk') as { Builder(options: object): unknown });
  trackRouterWsProvidersInScope();
  passOmnipoolMaxSlipFee();
  loaded = router;
  return loaded;
}

/** Whether the router has been loaded in this process (for /status, /metrics and tests). */
export const isRouterLoaded = (): boolean => loaded !== undefined;
