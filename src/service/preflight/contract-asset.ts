// The contract's Asset object, and how the pre-flight translators complete the SDK's assets from the
// offline registry (missing location or existential deposit, symbols, native assets).
import type { TAssetInfo, TChain, TLocation } from '@paraspell/sdk-pjs';
import { ApiError } from '../../errors';
import { sdk } from '../../sdk';

/** Asset object of the contract. `existentialDeposit` and amounts are decimal strings (base units). */
export interface ContractAsset {
  symbol: string;
  decimals: number;
  existentialDeposit: string;
  /**
   * `{parents, interior}`. Absent only for registry assets that have no location at all
   * (164 of the 1019 assets in the SDK_VERSION registry, e.g. several Acala tokens).
   */
  location?: TLocation;
  assetId?: string;
  isNative?: boolean;
  isFeeAsset?: boolean;
  alias?: string;
  /** Only on destination fee assets: the fee amount charged in this asset. */
  amount?: string;
}

/** What the translator asks a resolver for: a symbol, an SDK asset to complete, or the native asset. */
export type AssetRef = string | TAssetInfo | { native: true };

/**
 * Looks an asset up on a chain. Return undefined when unknown/ambiguous; never throw.
 * `registryAssetResolver` below implements it with the SDK's offline registry.
 */
export type AssetResolver = (chain: string, ref: AssetRef) => ContractAsset | undefined;

const isNativeRef = (ref: AssetRef): ref is { native: true } =>
  typeof ref === 'object' && ref !== null && 'native' in ref && !('symbol' in ref);

/** TAssetInfo (or an already-translated asset) -> contract asset, completed by the resolver when needed. */
export function toContractAsset(asset: TAssetInfo | ContractAsset, chain: string, resolve?: AssetResolver): ContractAsset {
  const out: ContractAsset = {
    symbol: asset.symbol,
    decimals: asset.decimals,
    existentialDeposit: asset.existentialDeposit ?? '',
  };
  if (asset.location) out.location = asset.location;
  if ('assetId' in asset && asset.assetId !== undefined) out.assetId = String(asset.assetId);
  if ('isNative' in asset && asset.isNative !== undefined) out.isNative = asset.isNative;
  if (asset.isFeeAsset !== undefined) out.isFeeAsset = asset.isFeeAsset;
  if (asset.alias !== undefined) out.alias = asset.alias;
  if ('amount' in asset && typeof asset.amount === 'string') out.amount = asset.amount;

  if ((out.existentialDeposit === '' || !out.location) && resolve) {
    const found = resolve(chain, asset as TAssetInfo);
    if (found) {
      if (out.existentialDeposit === '') out.existentialDeposit = found.existentialDeposit;
      if (!out.location && found.location) out.location = found.location;
    }
  }
  if (out.existentialDeposit === '') {
    // Every asset of the SDK_VERSION registry has an ED; reaching this means a hand-made asset.
    throw new ApiError(500, 'AssetInfoIncompleteError', `No existential deposit known for ${asset.symbol} on ${chain}`);
  }
  return out;
}

export function resolveRef(chain: string, ref: AssetRef, resolve?: AssetResolver): ContractAsset | undefined {
  if (!resolve) return undefined;
  try {
    return resolve(chain, ref);
  } catch {
    return undefined;
  }
}

export const CHAIN_SET = new Set<string>(sdk.CHAINS);

/**
 * Default resolver over the SDK's offline registry (findAssetInfo / findNativeAssetInfo).
 * Symbols that are ambiguous on the chain resolve to the native asset if it has that symbol, else undefined.
 */
export const registryAssetResolver: AssetResolver = (chain, ref) => {
  if (!CHAIN_SET.has(chain)) return undefined;
  const c = chain as TChain;
  const attempt = (f: () => TAssetInfo | null): TAssetInfo | null => {
    try {
      return f();
    } catch {
      return null;
    }
  };
  let found: TAssetInfo | null = null;
  if (isNativeRef(ref)) {
    found = attempt(() => sdk.findNativeAssetInfo(c));
  } else if (typeof ref === 'string') {
    found =
      attempt(() => sdk.findAssetInfo(c, { symbol: ref }, null)) ??
      attempt(() => sdk.findAssetInfo(c, { symbol: { type: 'Native', value: ref } }, null));
  } else {
    const loc = ref.location;
    const id = 'assetId' in ref ? ref.assetId : undefined;
    found =
      (loc ? attempt(() => sdk.findAssetInfo(c, { location: loc }, null)) : null) ??
      (id !== undefined ? attempt(() => sdk.findAssetInfo(c, { id }, null)) : null) ??
      attempt(() => sdk.findAssetInfo(c, { symbol: ref.symbol }, null));
  }
  if (!found || found.existentialDeposit === undefined) return undefined;
  return toContractAsset(found, chain);
};
