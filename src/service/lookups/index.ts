// Registry lookups (assets, chains, pallets, addresses): answered from the SDK's offline registry,
// no chain is dialled. Assets keep the registry's `alias` (ForeignAbstract selectors). Stateless functions; the HTTP layer caches their answers.
import type { TAssetInfo, TChain, TCurrencyCore, TLocation, TPallet, TRelaychain, TSubstrateChain } from '@paraspell/sdk-pjs';
import { ApiError, badRequest, notFound } from '../../errors';
import { sdk } from '../../sdk';
import { resolveOnChain } from '../offline-checks';
import { sdkCall } from '../sdk-calls';

/** The contract's Asset object: the registry record, with native assets flagged. */
export type Asset = Omit<TAssetInfo, 'isFeeAsset'> & { isFeeAsset?: boolean; isNative?: boolean };

export interface ChainRecord {
  relaychainSymbol: string;
  nativeAssetSymbol: string;
  isEVM: boolean;
  ss58Prefix: number;
  supportsDryRunApi: boolean;
  supportsXcmPaymentApi: boolean;
  assets: Asset[];
}

export type Ecosystem = TRelaychain | 'Ethereum';

function requireSubstrate(chain: TChain, what: string): TSubstrateChain {
  if (chain === 'Ethereum') throw badRequest('UnsupportedOperationError', `Ethereum has no ${what}; pass a Substrate chain`);
  return chain;
}

// ---- assets ----------------------------------------------------------------------------

export function chainRecord(chain: TChain): ChainRecord {
  const { nativeAssets, otherAssets, ...rest } = sdkCall(() => sdk.getAssetsObject(chain));
  return { ...rest, assets: [...nativeAssets.map((a) => ({ ...a, isNative: true as const })), ...otherAssets] };
}

/** Where lookups read their selector (a selector several assets answer to is refused there, with candidates). */
const CURRENCY = { path: 'body.currency' };

/** The asset `currency` names on `chain`; null when none. */
export const assetInfo = (chain: TChain, currency: TCurrencyCore, destination: TChain | null): Asset | null =>
  resolveOnChain(chain, currency, destination, CURRENCY);

export function assetLocation(chain: TChain, currency: TCurrencyCore): TLocation | null {
  assetInfo(chain, currency, null);
  return sdkCall(() => sdk.getAssetLocation(chain, currency));
}

/**
 * A currency selector as the caller wrote it, for a message: a big integer id keeps its `n`
 * (JSON.stringify alone throws on a bigint), and a large location is cut short.
 */
function shown(currency: TCurrencyCore): string {
  const text = JSON.stringify(currency, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
  return text.length <= 200 ? text : `${text.slice(0, 200)}...`;
}

function findOrThrow(chain: TChain, currency: TCurrencyCore): Asset {
  const asset = assetInfo(chain, currency, null);
  if (!asset) throw badRequest('InvalidCurrencyError', `No asset matching ${shown(currency)} on ${chain}`);
  return asset;
}

export function reserveChain(chain: TChain, currency: TCurrencyCore): TSubstrateChain {
  const substrate = requireSubstrate(chain, 'reserve chains');
  const asset = findOrThrow(chain, currency);
  if (!asset.location) throw badRequest('InvalidCurrencyError', `Asset ${asset.symbol} on ${chain} has no location`);
  const location = asset.location;
  return sdkCall(() => sdk.getAssetReserveChain(substrate, location));
}

export function supportedDestinations(chain: TChain, currency: TCurrencyCore): TChain[] {
  assetInfo(chain, currency, null);
  return sdkCall(() => sdk.getSupportedDestinations(chain, currency));
}

export const feeAssets = (chain: TChain): Asset[] => sdkCall(() => sdk.getFeeAssets(chain));
export const relayChainSymbol = (chain: TChain): string => sdkCall(() => sdk.getRelayChainSymbol(chain));
export const nativeAssets = (chain: TChain): Asset[] => sdkCall(() => sdk.getNativeAssets(chain));
export const otherAssets = (chain: TChain): Asset[] => sdkCall(() => sdk.getOtherAssets(chain));
export const allSymbols = (chain: TChain): string[] => sdkCall(() => sdk.getAllAssetsSymbols(chain));
export const supportedAssets = (origin: TChain, destination: TChain): Asset[] =>
  sdkCall(() => sdk.getSupportedAssets(origin, destination));

/** Existential deposit in base units, as a decimal string. */
export function existentialDeposit(chain: TChain, currency: TCurrencyCore): string {
  assetInfo(chain, currency, null);
  const ed = sdkCall(() => sdk.getExistentialDeposit(chain, currency));
  if (ed === null) throw badRequest('InvalidCurrencyError', `The registry has no existential deposit for ${shown(currency)} on ${chain}`);
  return ed.toString();
}

// ---- chains ----------------------------------------------------------------------------

export const chains = (): readonly TChain[] => sdk.CHAINS;
export const evmChains = (): TChain[] => sdk.CHAINS.filter((c) => sdk.isChainEvm(c));
export const wsEndpoints = (chain: TChain): string[] =>
  sdkCall(() => sdk.getChainProviders(requireSubstrate(chain, 'WebSocket endpoints')));
export const paraIdOf = (chain: TChain): number => sdkCall(() => sdk.getParaId(chain));
export const hasDryRunSupport = (chain: TChain): boolean => sdkCall(() => sdk.hasDryRunSupport(chain));

export function chainByParaId(paraId: number, ecosystem: Ecosystem): TChain {
  const chain = sdkCall(() => sdk.getTChain(paraId, ecosystem));
  if (!chain) throw notFound('ChainNotFoundError', `No chain with id ${paraId} in the ${ecosystem} ecosystem`);
  return chain;
}

// ---- pallets ---------------------------------------------------------------------------

const palletChain = (chain: TChain) => requireSubstrate(chain, 'XCM pallets');

export const pallets = (chain: TChain): TPallet[] => sdkCall(() => sdk.getSupportedPallets(palletChain(chain)));
export const defaultPallet = (chain: TChain): TPallet => sdkCall(() => sdk.getDefaultPallet(palletChain(chain)));
export const nativeAssetsPallet = (chain: TChain): string => sdkCall(() => sdk.getNativeAssetsPallet(palletChain(chain)));
export const otherAssetsPallets = (chain: TChain): string[] => sdkCall(() => sdk.getOtherAssetsPallets(palletChain(chain)));
/** Index of a pallet on the chain, or null when the chain does not have it. */
export const palletIndex = (chain: TChain, pallet: TPallet): number | null =>
  sdkCall(() => sdk.getPalletIndex(palletChain(chain), pallet)) ?? null;

// ---- addresses -------------------------------------------------------------------------

export function convertSs58(address: string, chain: TChain): string {
  const substrate = requireSubstrate(chain, 'SS58 format');
  try {
    return sdkCall(() => sdk.convertSs58(address, substrate));
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'ValidationError') {
      throw new ApiError(400, 'InvalidAddressError', `${error.message} (${chain} uses 20-byte EVM addresses)`);
    }
    throw error;
  }
}
