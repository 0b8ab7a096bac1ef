// Patch: fees priced with XcmPaymentApi reach the SDK under the keys it reads.
//
// Corrects: sdk-pjs 11 prices the origin's fee with XcmPaymentApi (the dry run's local XCM
// weighed, the weight priced in the fee asset) only when `dryRunCall(...).toJSON().ok.local_xcm`
// is set, a key polkadot.js never produces (it writes `localXcm`). So with a `feeAsset` (e.g. USDt
// on Asset Hub) the origin fee was the native payment-info figure (DOT planck) labelled USDt, in
// pre-flight answers and in the execute XCM the builder makes for Asset Hub and Hydration with a
// feeAsset (10 USDt was "too low" for an 18 USDt fee); and Asset Hub -> Ethereum was never priced
// by XcmPaymentApi. The SDK's origin dry run gets the key it reads (tracked with
// AsyncLocalStorage), and its XcmPaymentApi pricing (origin, hops and destination) the
// delivery-fee version key it reads (`ok.v4 ?? ok.v3`; a V5 runtime answers `v5`). Where the chain
// still cannot price the fee asset (no XcmPaymentApi, no local XCM), a native figure must not pass
// for it: that is an UnableToComputeError naming the chain. A chain refusing the asset is one
// already (fee-refusals.ts).
//
// Still needed? Read sdk-pjs's getDryRunCall / getXcmPaymentApiFee (sdk-core's origin fee and
// delivery-fee readers): if they read `localXcm` and a `v5` delivery-fee answer, the patch can go.
// Remove it and run the guard tests.
//
// Guarded by: test/http/preflight-fee-asset.test.ts, every test but "without feeAsset the origin
// pays in DOT as before"; test/http/preflight.test.ts "/%s pre-flight through the real SDK over a
// hop": "dry-run and xcm-fee: the SDK follows the XCM through the hop ...", "the amount rules
// count the hop ...", "the hop's delivery fee answered in XCM V5 counts once ...".
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TAssetInfo, TChain } from '@paraspell/sdk-pjs';
import { apiPrototypeOf } from '../api-prototype';
import { sdk } from '../load';

interface DryRunCallOptions {
  chain: TChain;
  feeAsset?: TAssetInfo;
  /** `sentAssetMintMode: 'bypass'` marks the dry run of the builder's `xcmFormatCheck`. */
  bypassOptions?: { sentAssetMintMode?: string };
}

type RuntimeCall = (...args: unknown[]) => Promise<{ toJSON(): unknown }>;

interface SdkDryRunApi {
  api?: { call?: Record<string, Record<string, unknown> | undefined> };
  getDryRunCall(options: DryRunCallOptions): Promise<{ success: boolean }>;
  getXcmPaymentApiFee(...args: unknown[]): Promise<unknown>;
}

/** The SDK's origin dry run in progress: whether XcmPaymentApi priced its fee. */
const originDryRun = new AsyncLocalStorage<{ priced: boolean }>();
/** The SDK pricing a dry-run leg (origin, hop or destination) with XcmPaymentApi. */
const xcmPaymentPricing = new AsyncLocalStorage<true>();
const amended = Symbol('amended for the SDK');

/**
 * Inside `scope` (the SDK's own use of the runtime call), `section[method]` answers a Codec whose
 * `toJSON().ok` has been passed through `amend` (the pooled connection's decorated runtime call is
 * wrapped once; a runtime upgrade decorates new sections, wrapped again on their first use).
 */
function amendJson(section: Record<string, unknown> | undefined, method: string, scope: AsyncLocalStorage<unknown>, amend: (ok: Record<string, unknown>) => void): void {
  const original = section?.[method] as (RuntimeCall & { [amended]?: true }) | undefined;
  if (!section || typeof original !== 'function' || original[amended]) return;
  const wrapped: RuntimeCall = async (...args) => {
    const response = await original.apply(section, args);
    if (!scope.getStore()) return response;
    const toJSON = response.toJSON.bind(response);
    response.toJSON = () => {
      const json = toJSON() as { ok?: Record<string, unknown> } | null;
      if (json?.ok) amend(json.ok);
      return json;
    };
    return response;
  };
  // The decorated method is a read-only (configurable) property; keep its `meta` and friends.
  Object.defineProperty(section, method, { value: Object.assign(wrapped, original, { [amended]: true }), configurable: true, enumerable: true });
}

export function priceFeesWithXcmPaymentApi(): void {
  const proto = apiPrototypeOf<SdkDryRunApi>(sdk);
  const { getDryRunCall, getXcmPaymentApiFee } = proto;
  proto.getXcmPaymentApiFee = async function (this: SdkDryRunApi, ...args) {
    // The SDK reads delivery fees as `ok.v4 ?? ok.v3`, for the origin and for every hop and the
    // destination it prices. A chain answers in the version it was asked in, V5 for the XCM a V5
    // runtime forwards: the delivery onward from a hop (Asset Hub to Hydration) counted 0. Give a
    // V5 answer under `v4` too. A versioned answer holds one version, and a V4/V3 one is left as it
    // is, so nothing counts twice (the dry run's FeesPaid events are read only for a leg
    // XcmPaymentApi did not price).
    amendJson(this.api?.call?.['xcmPaymentApi'], 'queryDeliveryFees', xcmPaymentPricing, (ok) => {
      if (ok['v5'] !== undefined && ok['v4'] === undefined) ok['v4'] = ok['v5'];
    });
    const fee = await xcmPaymentPricing.run(true, () => getXcmPaymentApiFee.apply(this, args));
    const run = originDryRun.getStore();
    if (run && typeof fee === 'bigint') run.priced = true;
    return fee;
  };
  proto.getDryRunCall = async function (this: SdkDryRunApi, options) {
    // xcmFormatCheck reads only whether the message passes: its fee is never shown, so a transfer
    // is not refused for a fee asset the chain cannot price.
    if (options.bypassOptions?.sentAssetMintMode === 'bypass') return getDryRunCall.call(this, options);
    amendJson(this.api?.call?.['dryRunApi'], 'dryRunCall', originDryRun, (ok) => {
      if (ok['localXcm'] != null) ok['local_xcm'] = ok['localXcm'];
    });
    const run = { priced: false };
    const result = await originDryRun.run(run, () => getDryRunCall.call(this, options));
    const { chain, feeAsset } = options;
    if (result.success && feeAsset && !run.priced) {
      const native = sdk.findNativeAssetInfoOrThrow(chain);
      if (!sdk.isAssetXcEqual(feeAsset, native)) {
        throw new sdk.UnableToComputeError(
          `The XCM fee on ${chain} cannot be computed in ${feeAsset.symbol}: its XcmPaymentApi did not price the dry run, and payment info gives fees in ${native.symbol} only`,
        );
      }
    }
    return result;
  };
}
