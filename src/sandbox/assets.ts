// The assets each sandbox chain holds, where its runtime keeps their balances (Balances, Assets,
// ForeignAssets, Tokens, Moonbeam's EvmForeignAssets), and which of them it takes for fees at what
// price. An asset is named by its location as the chain itself reads it (`{parents: 1, Here}` is
// DOT on Asset Hub), and by any other spelling the runtime reads as the same asset (`aliases`:
// GLMR is also `{0, X1[PalletInstance 10]}` on Moonbeam, HDX `{0, X1[GeneralIndex 0]}` on
// Hydration); one a chain does not list here is one it cannot hold (a deposit of it fails with
// AssetNotFound). Ids are the real chains' (Moonbeam's XC-20 ids, Hydration's asset registry).
import { crypto, util } from './polkadot-libs';
import { parseLocation, sameLocation, type Loc } from '../xcm/location';
import type { SandboxChainName } from './chain-data';

/** Where a chain's runtime stores an asset's balances. */
export type AssetStore =
  | { pallet: 'System' }
  | { pallet: 'Assets'; id: number }
  | { pallet: 'ForeignAssets'; location: Loc }
  | { pallet: 'Tokens'; id: number }
  /** Moonbeam's foreign assets: an XC-20 (an ERC-20 at 0xffffffff + the id) whose balances the EVM keeps (ledger.ts). */
  | { pallet: 'EvmForeignAssets'; id: bigint };

export interface ChainAsset {
  symbol: string;
  location: Loc;
  /** Other locations the runtime reads as this asset; the first is the one its currency conversion writes (what xTokens sends). */
  aliases?: Loc[];
  store: AssetStore;
  /** Units of the asset one second of weight (10^12 refTime) costs; absent: not taken for fees. */
  perSecond?: bigint;
}

const loc = (value: unknown): Loc => parseLocation(value)!;
const HERE = loc({ parents: 0, interior: 'Here' });
const PARENT = loc({ parents: 1, interior: 'Here' });
const USDT_FROM_SIBLING = loc({ parents: 1, interior: { X3: [{ Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 1984 }] } });
const KSM_BRIDGED = loc({ parents: 2, interior: { X1: [{ GlobalConsensus: { Kusama: null } }] } });
const USDC_FROM_SIBLING = loc({ parents: 1, interior: { X3: [{ Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 1337 }] } });
const HDX_FROM_SIBLING = loc({ parents: 1, interior: { X2: [{ Parachain: 2034 }, { GeneralIndex: 0 }] } });
const GLMR_FROM_SIBLING = loc({ parents: 1, interior: { X2: [{ Parachain: 2004 }, { PalletInstance: 10 }] } });

// 0.4 DOT per second of weight, 0.04 KSM; USDt (and USDC) at 5 per DOT, HDX at 100 per DOT.
const DOT_PER_SECOND = 4_000_000_000n;
const KSM_PER_SECOND = 40_000_000_000n;
const USDT_PER_SECOND = 2_000_000n;
const HDX_PER_SECOND = 400_000_000_000_000n;
/** 1 GLMR per second of weight, on Moonbeam and where GLMR is taken elsewhere. */
const GLMR_PER_SECOND = 10n ** 18n;

const CATALOGUE: Record<SandboxChainName, ChainAsset[]> = {
  Polkadot: [{ symbol: 'DOT', location: HERE, store: { pallet: 'System' }, perSecond: DOT_PER_SECOND }],
  Kusama: [{ symbol: 'KSM', location: HERE, store: { pallet: 'System' }, perSecond: KSM_PER_SECOND }],
  AssetHubPolkadot: [
    { symbol: 'DOT', location: PARENT, store: { pallet: 'System' }, perSecond: DOT_PER_SECOND },
    { symbol: 'USDT', location: loc({ parents: 0, interior: { X2: [{ PalletInstance: 50 }, { GeneralIndex: 1984 }] } }), store: { pallet: 'Assets', id: 1984 }, perSecond: USDT_PER_SECOND },
    { symbol: 'USDC', location: loc({ parents: 0, interior: { X2: [{ PalletInstance: 50 }, { GeneralIndex: 1337 }] } }), store: { pallet: 'Assets', id: 1337 }, perSecond: USDT_PER_SECOND },
    // The other network's token over the bridge: taken for fees as the real Asset Hubs take it (swapped in their pools).
    { symbol: 'KSM', location: loc({ parents: 2, interior: { X1: [{ GlobalConsensus: { Kusama: null } }] } }), store: { pallet: 'ForeignAssets', location: loc({ parents: 2, interior: { X1: [{ GlobalConsensus: { Kusama: null } }] } }) }, perSecond: KSM_PER_SECOND },
    // Hydration's HDX and Moonbeam's GLMR, in ForeignAssets as on the real Asset Hub; GLMR, which
    // has a pool there (the registry's isFeeAsset), is taken for fees, HDX is not.
    { symbol: 'HDX', location: HDX_FROM_SIBLING, store: { pallet: 'ForeignAssets', location: HDX_FROM_SIBLING } },
    { symbol: 'GLMR', location: GLMR_FROM_SIBLING, store: { pallet: 'ForeignAssets', location: GLMR_FROM_SIBLING }, perSecond: GLMR_PER_SECOND },
  ],
  AssetHubKusama: [
    { symbol: 'KSM', location: PARENT, store: { pallet: 'System' }, perSecond: KSM_PER_SECOND },
    { symbol: 'DOT', location: loc({ parents: 2, interior: { X1: [{ GlobalConsensus: { Polkadot: null } }] } }), store: { pallet: 'ForeignAssets', location: loc({ parents: 2, interior: { X1: [{ GlobalConsensus: { Polkadot: null } }] } }) }, perSecond: DOT_PER_SECOND },
  ],
  BridgeHubPolkadot: [{ symbol: 'DOT', location: PARENT, store: { pallet: 'System' }, perSecond: DOT_PER_SECOND }],
  Hydration: [
    { symbol: 'HDX', location: HERE, aliases: [loc({ parents: 0, interior: { X1: [{ GeneralIndex: 0 }] } })], store: { pallet: 'System' }, perSecond: HDX_PER_SECOND },
    { symbol: 'DOT', location: PARENT, store: { pallet: 'Tokens', id: 5 }, perSecond: DOT_PER_SECOND },
    { symbol: 'USDT', location: USDT_FROM_SIBLING, store: { pallet: 'Tokens', id: 10 }, perSecond: USDT_PER_SECOND },
    { symbol: 'USDC', location: USDC_FROM_SIBLING, store: { pallet: 'Tokens', id: 22 }, perSecond: USDT_PER_SECOND },
    { symbol: 'KSM', location: KSM_BRIDGED, store: { pallet: 'Tokens', id: 1000771 }, perSecond: KSM_PER_SECOND },
    { symbol: 'GLMR', location: GLMR_FROM_SIBLING, store: { pallet: 'Tokens', id: 16 }, perSecond: GLMR_PER_SECOND },
  ],
  Moonbeam: [
    { symbol: 'GLMR', location: HERE, aliases: [loc({ parents: 0, interior: { X1: [{ PalletInstance: 10 }] } })], store: { pallet: 'System' }, perSecond: GLMR_PER_SECOND },
    // The XC-20s of EvmForeignAssets, taken for fees as XcmWeightTrader.SupportedAssets lists them.
    { symbol: 'xcDOT', location: PARENT, store: { pallet: 'EvmForeignAssets', id: 42259045809535163221576417993425387648n }, perSecond: DOT_PER_SECOND },
    { symbol: 'xcUSDT', location: USDT_FROM_SIBLING, store: { pallet: 'EvmForeignAssets', id: 311091173110107856861649819128533077277n }, perSecond: USDT_PER_SECOND },
    { symbol: 'xcUSDC', location: USDC_FROM_SIBLING, store: { pallet: 'EvmForeignAssets', id: 166377000701797186346254371275954761085n }, perSecond: USDT_PER_SECOND },
    { symbol: 'xcHDX', location: HDX_FROM_SIBLING, store: { pallet: 'EvmForeignAssets', id: 69606720909260275826784788104880799692n }, perSecond: HDX_PER_SECOND },
  ],
};

/** The asset at `location` as the chain reads it (its own spelling or an alias). */
export function assetOf(chain: SandboxChainName, location: Loc): ChainAsset | undefined {
  return CATALOGUE[chain].find((a) => sameLocation(a.location, location) || a.aliases?.some((alias) => sameLocation(alias, location)));
}

export const assetsOf = (chain: SandboxChainName): readonly ChainAsset[] => CATALOGUE[chain];

/** The chain's native asset (System.Account). */
export const nativeOf = (chain: SandboxChainName): ChainAsset => CATALOGUE[chain][0]!;

/** An asset by its pallet-assets id or Tokens currency id (what `assets.transfer` / `xTokens.transfer` name). */
export function assetById(chain: SandboxChainName, pallet: 'Assets' | 'Tokens' | 'EvmForeignAssets', id: number | bigint): ChainAsset | undefined {
  return CATALOGUE[chain].find((a) => a.store.pallet === pallet && BigInt(a.store.id) === BigInt(id));
}

/** An XC-20's contract address: 0xffffffff followed by its asset id (32 hex digits). */
export const xc20Address = (id: bigint): string => `0xffffffff${id.toString(16).padStart(32, '0')}`;

/**
 * Where an XC-20 keeps `who`'s balance: its ERC-20's `balanceOf` mapping at slot 0,
 * keccak256(address padded to 32 bytes ++ slot 0), as the SDK's dry run writes it.
 */
export function balanceSlot(who: string): string {
  const word = (bytes: Uint8Array) => util.u8aConcat(new Uint8Array(32 - bytes.length), bytes);
  return crypto.keccakAsHex(util.u8aConcat(word(util.hexToU8a(who)), new Uint8Array(32)), 256);
}
