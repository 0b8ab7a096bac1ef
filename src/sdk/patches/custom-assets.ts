// Patch: the registry's asset lists of a chain include the custom assets of the request in progress.
//
// Corrects: sdk-pjs 11 has no custom-assets option (the builder-level `customAssets` came with the
// SDK 12-14 line the contract follows): an asset the registry does not list could only be sent as
// an Override location, which the SDK cannot price, find on the destination or check an
// existential deposit for. Every registry read of @paraspell/assets goes through the one object
// per chain `getAssetsObject(chain)` returns; its `nativeAssets` and `otherAssets` become getters
// that answer the request's lists (../custom-assets.ts) when it names the chain, and the
// registry's own lists otherwise. Selection by symbol, id or location, fees, existential deposits
// and pre-flight all read those lists.
//
// Still needed? Look for `customAssets` in sdk-core's Builder options (and @paraspell/assets'
// getAssetsObject taking a context) in a newer SDK: then hand `customAssets` to the Builder, drop
// the scope in ../custom-assets.ts and this patch. Remove it and run the guard tests.
//
// Guarded by: test/http/custom-assets.test.ts, all of "/%s options.customAssets".
import type { TChain } from '@paraspell/sdk-pjs';
import { customAssetLists } from '../custom-assets';
import { sdk } from '../load';

export function readCustomAssetsInTheRegistry(): void {
  for (const chain of sdk.CHAINS as readonly TChain[]) {
    const registry = sdk.getAssetsObject(chain);
    for (const list of ['nativeAssets', 'otherAssets'] as const) {
      const own = registry[list];
      Object.defineProperty(registry, list, {
        configurable: true,
        enumerable: true,
        get: () => customAssetLists(chain)?.[list] ?? own,
      });
    }
  }
}
