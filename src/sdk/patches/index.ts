// Every change this service makes to the SDK's behaviour, one file each. Each file says which SDK
// behaviour it corrects, how to tell whether a newer SDK still needs it, and the tests that fail
// without it.
//
// Applied when the SDK loads (load.ts):   chain-websocket.ts, contained-observable-errors.ts,
//                                         address-memo.ts, storage-entry-json.ts,
//                                         enum-json-keys.ts,
//                                         chain-instances-once.ts
// Applied by patchSdk() (createServices): create-api-for-chain.ts, account-balances.ts,
//                                         fee-refusals.ts, payment-info-era.ts, payment-info-bytes.ts,
//                                         xcm-payment-pricing.ts,
//                                         custom-assets.ts, nested-destinations.ts,
//                                         moonbeam-erc20-balances.ts, delivery-fees-asset.ts,
//                                         relay-after-hop.ts, bridge-destination.ts,
//                                         metadata-xcm-version.ts, runtime-dry-run-api.ts,
//                                         dry-run-mint-overflow.ts,
//                                         signed-extension-types.ts, wrap-built-calls.ts,
//                                         query-memo.ts (last: it wraps the patched methods)
// Used by the pool (src/chains/shared-runtimes.ts, runtime-cache.ts): shared-runtime.ts,
//                                         detached-runtime.ts, decode-in-turns.ts
// Applied when xcm-router loads (router.ts): router-pjs-clients.ts, router-papi-clients.ts,
//                                         router-ws-providers.ts, omnipool-math-arity.ts
import { readAccountBalancesAsBigInt } from './account-balances';
import { followTransfersAcrossTheBridge } from './bridge-destination';
import { routeAllSdkChainsThroughOverrides } from './create-api-for-chain';
import { readCustomAssetsInTheRegistry } from './custom-assets';
import { refuseAmountsPastTheDryRunMint } from './dry-run-mint-overflow';
import { buildWithTheMetadataXcmVersion } from './metadata-xcm-version';
import { askDeliveryFeesInTheNativeAsset } from './delivery-fees-asset';
import { reportFeeRefusalsAsUnableToCompute } from './fee-refusals';
import { readMoonbeamErc20BalancesOverTheChain } from './moonbeam-erc20-balances';
import { anchorNestedProgramsToTheirChains } from './nested-destinations';
import { priceFakeSignedBytes } from './payment-info-bytes';
import { priceWithAGenesisEra } from './payment-info-era';
import { memoizeWithinAQuery } from './query-memo';
import { followForwardsToTheRelay } from './relay-after-hop';
import { refuseDryRunsWithoutTheRuntimeApi } from './runtime-dry-run-api';
import { expandSignedExtensionTypesOnce } from './signed-extension-types';
import { wrapTheBuiltCalls } from './wrap-built-calls';
import { priceFeesWithXcmPaymentApi } from './xcm-payment-pricing';

let patched = false;

/** Applies the patches of sdk-pjs's chain API, once per process. */
export function patchSdk(): void {
  if (patched) return;
  patched = true;
  routeAllSdkChainsThroughOverrides();
  readAccountBalancesAsBigInt();
  reportFeeRefusalsAsUnableToCompute();
  priceWithAGenesisEra();
  priceFakeSignedBytes();
  priceFeesWithXcmPaymentApi();
  readCustomAssetsInTheRegistry();
  anchorNestedProgramsToTheirChains();
  readMoonbeamErc20BalancesOverTheChain();
  askDeliveryFeesInTheNativeAsset();
  followForwardsToTheRelay();
  followTransfersAcrossTheBridge();
  buildWithTheMetadataXcmVersion();
  refuseDryRunsWithoutTheRuntimeApi();
  refuseAmountsPastTheDryRunMint();
  expandSignedExtensionTypesOnce();
  wrapTheBuiltCalls();
  memoizeWithinAQuery();
}
