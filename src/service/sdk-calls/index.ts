// How every capability calls the SDK: chain work runs through the pool under the request deadline
// (run-on-chains.ts), endpoints a caller names are checked before anything is dialled
// (override-endpoints.ts), whatever the SDK throws becomes the error a caller sees (sdk-errors.ts),
// what nodes make one request read and decode is bounded (read-budget.ts), and a request's custom
// assets join the registry for the operation (custom-assets.ts).
export { runOnChains, type ChainCall } from './run-on-chains';
export { checkOverrideHosts, checkOverrideUrls, endpointResolver, MAX_OVERRIDE_ENDPOINTS } from './override-endpoints';
export { ambiguityInWords, fromChainFailure, fromSdkError, sdkCall } from './sdk-errors';
export { announcedItems, jsonBytes, ReadBudget, readLimits, type ReadLimits, type ReadSpent } from './read-budget';
export { withRequestAssets } from './custom-assets';
