// Patch: sdk-pjs's `createApiForChain` opens the chain with the caller's builder config.
//
// Corrects: sdk-pjs 11 opens some chains (AssetHubPolkadot and BridgeHubPolkadot for transfers to
// Ethereum from Hydration, Bifrost and Moonbeam) with `createApiForChain`, which drops the
// caller's config (apiOverrides, development) and dials the public endpoints: outside the pool,
// with no deadline, for ever on failure. Here it clones the config, as every other hop does, so
// those chains are pooled, deadlined and honour development mode.
//
// Still needed? Read the new sdk-pjs's PolkadotJsApi.createApiForChain: if it clones the API (or
// passes its config on) the patch can go. Remove it and run the guard tests.
//
// Guarded by: test/chains/chain-scope.test.ts "createApiForChain goes through the caller's
// overrides" (both tests).
import { apiPrototypeOf } from '../api-prototype';
import { sdk } from '../load';

interface SdkChainApi {
  clone(): SdkChainApi;
  init(chain: string): Promise<void>;
  createApiForChain(chain: string): Promise<SdkChainApi>;
}

export function routeAllSdkChainsThroughOverrides(): void {
  const proto = apiPrototypeOf<SdkChainApi>(sdk);
  proto.createApiForChain = async function createApiForChain(this: SdkChainApi, chain: string) {
    const api = this.clone();
    await api.init(chain);
    return api;
  };
}
