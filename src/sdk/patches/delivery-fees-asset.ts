// Patch: XcmPaymentApi.query_delivery_fees is asked with the asset to quote in (the chain's native
// asset) where the chain's runtime takes one.
//
// Corrects: sdk-pjs 11.14.8's `getXcmPaymentApiFee` calls
// `api.call.xcmPaymentApi.queryDeliveryFees(destination, message)`, two arguments, for every leg
// that forwards a message. Runtimes on XcmPaymentApi v2 take a third, the asset to quote the fee
// in (Moonbeam 4401: `query_delivery_fees(destination, message, asset_id)`); polkadot.js refuses the
// call ("Expected 3 arguments, found 2"), so every pre-flight of a route through Moonbeam (GLMR
// from Hydration to Asset Hub, whose reserve it is) answered 500. The SDK reads the answer as a
// fee in the chain's native asset (it converts it itself), so that is the asset asked for, as the
// chain spells it (Moonbeam: `{0, X1[PalletInstance 10]}`).
//
// Still needed? Read sdk-pjs's `getXcmPaymentApiFee`: when it passes an asset id to
// `queryDeliveryFees` (or reads the method's parameters), the patch can go. Remove it and run the
// guard tests.
//
// Guarded by: test/sandbox/route-matrix.test.ts "Hydration -> AssetHubPolkadot GLMR".
import type { TChain } from '@paraspell/sdk-pjs';
import { apiPrototypeOf } from '../api-prototype';
import { sdk } from '../load';

type RuntimeCall = ((...args: unknown[]) => Promise<unknown>) & { meta?: { params?: unknown[] } };

interface SdkPaymentApi {
  api?: { call?: Record<string, Record<string, unknown> | undefined> };
  getXcmPaymentApiFee(chain: TChain, ...rest: unknown[]): Promise<unknown>;
}

const withAssetId = Symbol('asks query_delivery_fees in an asset');

/** The chain's native asset as the chain itself locates it, versioned as `destination` is. */
function nativeAssetId(chain: TChain, destination: unknown): unknown {
  const native = sdk.findNativeAssetInfoOrThrow(chain);
  if (!native.location) return undefined;
  const version = destination && typeof destination === 'object' ? Object.keys(destination)[0] : undefined;
  const location = sdk.localizeLocation(chain, native.location);
  return version && /^v\d$/i.test(version) ? { [version.toUpperCase()]: location } : location;
}

export function askDeliveryFeesInTheNativeAsset(): void {
  const proto = apiPrototypeOf<SdkPaymentApi>(sdk);
  const { getXcmPaymentApiFee } = proto;
  proto.getXcmPaymentApiFee = function (this: SdkPaymentApi, chain, ...rest) {
    const section = this.api?.call?.['xcmPaymentApi'];
    const original = section?.['queryDeliveryFees'] as (RuntimeCall & { [withAssetId]?: true }) | undefined;
    if (section && typeof original === 'function' && !original[withAssetId] && original.meta?.params?.length === 3) {
      const wrapped: RuntimeCall = (...args) => original.apply(section, args.length === 2 ? [...args, nativeAssetId(chain, args[0])] : args);
      // The decorated method is a read-only (configurable) property; keep its `meta` and friends.
      Object.defineProperty(section, 'queryDeliveryFees', { value: Object.assign(wrapped, original, { [withAssetId]: true }), configurable: true, enumerable: true });
    }
    return getXcmPaymentApiFee.call(this, chain, ...rest);
  };
}
