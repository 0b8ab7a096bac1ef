// The ParaSpell SDK and @polkadot/* behind one door: loaded once, through one `require` (load.ts),
// with every change we make to their behaviour in its own file under patches/. The rest of the
// code imports the SDK from here only (types may come from the packages themselves).
export { polkadotApi, polkadotUtil, readSs58, sdk, snowbridgeMainnet, utilCrypto } from './load';
export type { Ss58Reading } from './patches/address-memo';
export { patchSdk } from './patches';
export { SDK_VERSION } from './version';
export { isRouterLoaded, loadRouter } from './router';
export { routerRegistry, type RouterRegistry } from './router-registry';
export { papiModules, type PapiClient } from './papi';
export { customAssetLists, outsideCustomAssets, placeCustomAssets, withCustomAssets, type ChainAssetLists, type CustomAsset, type PlacedAsset } from './custom-assets';
export { inEngineScope, outsideEngineScopes, type EngineClients } from './engine-scopes';
export { offersDryRunApi } from './patches/runtime-dry-run-api';
export { askEachReadOncePerQuery, withQueryMemo } from './patches/query-memo';
export { askMetadata, askRuntime, decodeRuntime, NodeAnswers } from './patches/detached-runtime';
export { apiOnSharedRuntime, rpcProvider, runtimeKey, runtimeOf, type RuntimeVersionKey } from './patches/shared-runtime';
export type { ApiPromise } from '@polkadot/api';
