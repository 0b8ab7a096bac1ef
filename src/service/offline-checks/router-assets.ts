// The router's own asset lookups (xcm-router SDK_VERSION: getExchangeAsset and
// getExchangeAssetByOriginAsset), mirrored over its registry so that a swap's currencies are
// judged offline the way the router will judge them. The router looks currencyTo (and, where the
// swap starts on the exchange chain, currencyFrom) up in the exchange's own asset list, not in
// the chain's registry: USDT is three assets of HydrationDex, one of AssetHubPolkadotDex.
import type { TAssetInfo, TCurrencyCore, TLocation, TNativeAssetInfo, TForeignAssetInfo } from '@paraspell/sdk-pjs';
import { exchangeBaseChain, type ExchangeName, type RouterCurrency } from '../../schemas/router';
import { routerRegistry, sdk } from '../../sdk';
import { AMBIGUOUS, isDuplicateAssetError, type Lookup } from './asset-choice';

/** An asset of an exchange's list: symbol, decimals, location and, where the chain has one, its id. */
export interface ExchangeAsset {
  symbol: string;
  decimals?: number;
  location?: TLocation;
  assetId?: string;
  isNative?: boolean;
}

export function exchangeAssets(exchange: ExchangeName): ExchangeAsset[] {
  return routerRegistry().getExchangeAssets(exchange) as ExchangeAsset[];
}

/**
 * What the router selects with `currency` on `exchange`: its getExchangeAsset. With automatic
 * selection (`strict`) any symbol several assets share is refused, whatever their spelling.
 */
export function exchangeLookup(exchange: ExchangeName, currency: RouterCurrency, strict: boolean): Lookup<ExchangeAsset> {
  const assets = exchangeAssets(exchange);
  // The router's lists mark no asset native: all are looked up as foreign assets.
  const native = assets.filter((a) => 'isNative' in a) as TNativeAssetInfo[];
  const other = assets.filter((a) => !('isNative' in a)) as TForeignAssetInfo[];
  try {
    if ('symbol' in currency) {
      if (strict && sdk.findBestMatches(assets as TAssetInfo[], currency.symbol).length > 1) return AMBIGUOUS;
      return sdk.findAssetInfoBySymbol(null, other, native, currency.symbol);
    }
    if ('location' in currency) return sdk.findAssetInfoByLoc(other, currency.location) ?? sdk.findAssetInfoByLoc(native as TAssetInfo[] as TForeignAssetInfo[], currency.location);
    return sdk.findAssetInfoById(other, (currency as TCurrencyCore & { id: string }).id);
  } catch (error) {
    if (isDuplicateAssetError(error)) return AMBIGUOUS;
    throw error;
  }
}

/**
 * The exchange's asset for an asset of the origin chain (getExchangeAssetByOriginAsset): by
 * symbol (`xc` prefix dropped too), and where several share it, a foreign asset by location.
 * Undefined: the router passes this exchange by.
 */
export function exchangeAssetOf(exchange: ExchangeName, origin: TAssetInfo): ExchangeAsset | undefined {
  const assets = exchangeAssets(exchange);
  const symbols = origin.symbol.startsWith('xc') ? [origin.symbol, origin.symbol.slice(2)] : [origin.symbol];
  const found = symbols.flatMap((s) => sdk.findBestMatches(assets as TAssetInfo[], s)) as ExchangeAsset[];
  if (found.length <= 1) return found[0];
  if (!sdk.isForeignAsset(origin) || !origin.location) return undefined;
  const base = exchangeBaseChain(exchange);
  return found.find((a) => {
    if (a.assetId === undefined) return false;
    try {
      const registered = sdk.findAssetInfo(base, { id: a.assetId }, null);
      return registered?.location !== undefined && sdk.deepEqual(registered.location, origin.location);
    } catch {
      return false;
    }
  });
}
