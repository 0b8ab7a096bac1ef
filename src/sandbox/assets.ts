// The assets each sandbox chain holds, where its runtime keeps their balances (Balances, Assets,
// ForeignAssets, Tokens), and which of them it takes for fees at what price. An asset is named by
// its location as the chain itself reads it (`{parents: 1, Here}` is DOT on Asset Hub); one a
// chain does not list here is one it cannot hold (a deposit of it fails with AssetNotFound).
import { parseLocation, sameLocation, type Loc } from '../xcm/location';
import type { SandboxChainName } from './chain-data';

/** Where a chain's runtime stores an asset's balances. */
export type AssetStore =
  | { pallet: 'System' }
  | { pallet: 'Assets'; id: number }
  | { pallet: 'ForeignAssets'; location: Loc }
  | { pallet: 'Tokens'; id: number };

export interface ChainAsset {
  symbol: string;
  location: Loc;
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

// 0.4 DOT per second of weight, 0.04 KSM; USDt (and USDC) at 5 per DOT, HDX at 100 per DOT.
const DOT_PER_SECOND = 4_000_000_000n;
const KSM_PER_SECOND = 40_000_000_000n;
const USDT_PER_SECOND = 2_000_000n;
const HDX_PER_SECOND = 400_000_000_000_000n;

const CATALOGUE: Record<SandboxChainName, ChainAsset[]> = {
  Polkadot: [{ symbol: 'DOT', location: HERE, store: { pallet: 'System' }, perSecond: DOT_PER_SECOND }],
  Kusama: [{ symbol: 'KSM', location: HERE, store: { pallet: 'System' }, perSecond: KSM_PER_SECOND }],
  AssetHubPolkadot: [
    { symbol: 'DOT', location: PARENT, store: { pallet: 'System' }, perSecond: DOT_PER_SECOND },
    { symbol: 'USDT', location: loc({ parents: 0, interior: { X2: [{ PalletInstance: 50 }, { GeneralIndex: 1984 }] } }), store: { pallet: 'Assets', id: 1984 }, perSecond: USDT_PER_SECOND },
    { symbol: 'USDC', location: loc({ parents: 0, interior: { X2: [{ PalletInstance: 50 }, { GeneralIndex: 1337 }] } }), store: { pallet: 'Assets', id: 1337 }, perSecond: USDT_PER_SECOND },
    // The other network's token over the bridge: taken for fees as the real Asset Hubs take it (swapped in their pools).
    { symbol: 'KSM', location: loc({ parents: 2, interior: { X1: [{ GlobalConsensus: { Kusama: null } }] } }), store: { pallet: 'ForeignAssets', location: loc({ parents: 2, interior: { X1: [{ GlobalConsensus: { Kusama: null } }] } }) }, perSecond: KSM_PER_SECOND },
  ],
  AssetHubKusama: [
    { symbol: 'KSM', location: PARENT, store: { pallet: 'System' }, perSecond: KSM_PER_SECOND },
    { symbol: 'DOT', location: loc({ parents: 2, interior: { X1: [{ GlobalConsensus: { Polkadot: null } }] } }), store: { pallet: 'ForeignAssets', location: loc({ parents: 2, interior: { X1: [{ GlobalConsensus: { Polkadot: null } }] } }) }, perSecond: DOT_PER_SECOND },
  ],
  BridgeHubPolkadot: [{ symbol: 'DOT', location: PARENT, store: { pallet: 'System' }, perSecond: DOT_PER_SECOND }],
  Hydration: [
    { symbol: 'HDX', location: HERE, store: { pallet: 'System' }, perSecond: HDX_PER_SECOND },
    { symbol: 'DOT', location: PARENT, store: { pallet: 'Tokens', id: 5 }, perSecond: DOT_PER_SECOND },
    { symbol: 'USDT', location: USDT_FROM_SIBLING, store: { pallet: 'Tokens', id: 10 }, perSecond: USDT_PER_SECOND },
    { symbol: 'USDC', location: USDC_FROM_SIBLING, store: { pallet: 'Tokens', id: 22 }, perSecond: USDT_PER_SECOND },
    { symbol: 'KSM', location: KSM_BRIDGED, store: { pallet: 'Tokens', id: 1000771 }, perSecond: KSM_PER_SECOND },
  ],
  Moonbeam: [
    { symbol: 'GLMR', location: HERE, store: { pallet: 'System' }, perSecond: 10n ** 18n },
    { symbol: 'GLMR', location: loc({ parents: 0, interior: { X1: [{ PalletInstance: 10 }] } }), store: { pallet: 'System' } },
  ],
};

/** The chain's own spelling of a local asset (`{0, X2[PalletInstance, GeneralIndex]}`) also read from a sibling's view of itself. */
export function assetOf(chain: SandboxChainName, location: Loc): ChainAsset | undefined {
  return CATALOGUE[chain].find((a) => sameLocation(a.location, location));
}

export const assetsOf = (chain: SandboxChainName): readonly ChainAsset[] => CATALOGUE[chain];

/** The chain's native asset (System.Account). */
export const nativeOf = (chain: SandboxChainName): ChainAsset => CATALOGUE[chain][0]!;

/** An asset by its pallet-assets id or Tokens currency id (what `assets.transfer` / `xTokens.transfer` name). */
export function assetById(chain: SandboxChainName, pallet: 'Assets' | 'Tokens', id: number): ChainAsset | undefined {
  return CATALOGUE[chain].find((a) => a.store.pallet === pallet && a.store.id === id);
}
