// Patch: a dry run on a chain whose runtime offers no DryRunApi fails with a reason a person reads.
//
// Corrects: sdk-pjs 11.14.8 decides from its registry whether a chain can be dry-run
// (`supportsDryRunApi`), never from the chain: a runtime older than that registry (Kusama 1.0.0,
// early 2024) has no `api.call.dryRunApi`, and every pre-flight's origin `dryRunError` was a raw
// TypeError ("Cannot read properties of undefined (reading 'dryRunCall')"). The dry runs now answer
// a failure shaped as the SDK's own, with a reason naming the chain and its runtime;
// `offersDryRunApi` lets the service say what the SDK cannot know past such a chain (docs/preflight.md).
//
// Still needed? Read sdk-pjs's PolkadotJsApi.getDryRunCall and getDryRunXcm: if they check
// `this.api.call.dryRunApi` (the runtime) and not only `getAssetsObject(chain).supportsDryRunApi`,
// the patch can go. Remove it and run the guard tests.
//
// Guarded by: test/http/older-runtimes.test.ts "/%s /xcm-fee: the origin's dryRunError says the
// runtime has no DryRunApi; ...".
import type { TChain } from '@paraspell/sdk-pjs';
import type { ApiPromise } from '@polkadot/api';
import { apiPrototypeOf } from '../api-prototype';
import { sdk } from '../load';

interface Asset {
  symbol: string;
}

interface SdkDryRunApi {
  readonly api: ApiPromise;
  getDryRunCall(options: { chain: TChain; feeAsset?: Asset }): Promise<unknown>;
  getDryRunXcm(options: { chain: string; asset: Asset }): Promise<unknown>;
}

/** Whether the runtime behind `api` offers DryRunApi (its metadata and runtime version list it). */
export function offersDryRunApi(api: ApiPromise): boolean {
  return typeof (api.call as Partial<Record<string, Record<string, unknown>>>)['dryRunApi']?.['dryRunCall'] === 'function';
}

/** A failed dry run, shaped as the SDK's own failures are (it reads them, it does not catch). */
function failed(api: ApiPromise, chain: string, asset: Asset) {
  const { specName, specVersion } = api.runtimeVersion;
  const failureReason = `DryRunApi is not available on chain ${chain}: its runtime (${specName.toString()} ${specVersion.toString()}) does not offer it`;
  return { success: false, failureReason, currency: asset.symbol, asset };
}

export function refuseDryRunsWithoutTheRuntimeApi(): void {
  const proto = apiPrototypeOf<SdkDryRunApi>(sdk);
  const { getDryRunCall, getDryRunXcm } = proto;
  proto.getDryRunCall = async function (this: SdkDryRunApi, options) {
    // The asset the SDK's own failures name: the fee asset, else the chain's native one.
    if (!offersDryRunApi(this.api)) return failed(this.api, options.chain, options.feeAsset ?? (sdk.findNativeAssetInfoOrThrow(options.chain)));
    return getDryRunCall.call(this, options);
  };
  proto.getDryRunXcm = async function (this: SdkDryRunApi, options) {
    if (!offersDryRunApi(this.api)) return failed(this.api, options.chain, options.asset);
    return getDryRunXcm.call(this, options);
  };
}
