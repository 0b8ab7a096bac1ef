// Hydration's Omnipool as its trade router (@galacticcouncil/sdk, behind the router's HydrationDex)
// reads it, so a swap between the sandbox's Hydration assets can be quoted and built: the pool's
// assets (Omnipool.Assets, HubAssetTradability), the pool account's balances, the dynamic fees and
// the EMA oracle entries the router asks for, in the storage shapes of Hydration's metadata. The
// reserves are the sandbox's own, priced round (1 DOT = 4 USDT, 1 HDX = 0.01 USDT), not the market's.
// Hydration's other pools (XYK, LBP, stableswap, Aave) are empty, as on a node without them.
import { util } from './polkadot-libs';
import { assetsOf } from './assets';
import type { ChainNode } from './chain-node';
import type { Ledger } from './ledger';
import { seedTokens } from './seed';
import { storageEntry } from './storage-keys';
import { toSdkJson } from '../xcm/location';

/** The Omnipool's account: PalletId "omnipool" as `modl` + id, zero-padded to 32 bytes. */
export const OMNIPOOL_ACCOUNT = util.u8aToHex(util.stringToU8a('modlomnipool'.padEnd(32, '\0')));
/** LRNA, the Omnipool's hub asset (Omnipool.HubAssetId), 12 decimals. */
const LRNA = 1;
const LRNA_UNIT = 10n ** 12n;
/** Sell, buy, add and remove liquidity (pallet-omnipool's Tradability bits). */
const TRADABLE = 0b1111;
/** 100% as Omnipool.Assets' cap (a Perquintill). */
const NO_CAP = 10n ** 18n;

/** Each pool asset: its Hydration id, its reserve (base units), and what that reserve is worth in LRNA. */
const RESERVES: { symbol: string; id: number; reserve: bigint; hubReserve: bigint }[] = [
  { symbol: 'HDX', id: 0, reserve: 200_000_000n * 10n ** 12n, hubReserve: 2_000_000n * LRNA_UNIT },
  { symbol: 'DOT', id: 5, reserve: 500_000n * 10n ** 10n, hubReserve: 2_000_000n * LRNA_UNIT },
  { symbol: 'USDT', id: 10, reserve: 2_000_000n * 10n ** 6n, hubReserve: 2_000_000n * LRNA_UNIT },
];

/** AssetRegistry.Assets: what the trade router lists (every Hydration asset of the sandbox, and LRNA), as Hydration registers them. */
const REGISTRY: { id: number; symbol: string; decimals: number; existentialDeposit: bigint }[] = [
  { id: 0, symbol: 'HDX', decimals: 12, existentialDeposit: 1_000_000_000_000n },
  { id: LRNA, symbol: 'LRNA', decimals: 12, existentialDeposit: 400_000_000n },
  { id: 5, symbol: 'DOT', decimals: 10, existentialDeposit: 17_540_000n },
  { id: 10, symbol: 'USDT', decimals: 6, existentialDeposit: 10_000n },
  { id: 16, symbol: 'GLMR', decimals: 18, existentialDeposit: 34_854_864_344_868n },
  { id: 22, symbol: 'USDC', decimals: 6, existentialDeposit: 10_000n },
  { id: 1000771, symbol: 'KSM', decimals: 12, existentialDeposit: 100_000_000n },
];

function seed(node: ChainNode, pallet: string, item: string, keys: unknown[], value: unknown): void {
  const { key, value: hex } = storageEntry(node.registry, pallet, item, keys, value);
  node.setStorage(key, hex);
}

/** Seeds Hydration's Omnipool (storage and the pool account's balances, through `ledger`) and answers its trade router's runtime call. */
export function seedOmnipool(node: ChainNode, ledger: Ledger): void {
  for (const { id, symbol, decimals, existentialDeposit } of REGISTRY) {
    const name = util.stringToHex(symbol);
    seed(node, 'AssetRegistry', 'Assets', [id], { name, assetType: 'Token', existentialDeposit, symbol: name, decimals, xcmRateLimit: null, isSufficient: true });
    // Where the asset comes from, as the registry records it (HDX, at home, and LRNA have none).
    const location = assetsOf('Hydration').find((a) => a.symbol === symbol && a.store.pallet === 'Tokens')?.location;
    if (location) seed(node, 'AssetRegistry', 'AssetLocations', [id], toSdkJson(location));
  }
  for (const { symbol, id, reserve, hubReserve } of RESERVES) {
    const asset = assetsOf('Hydration').find((a) => a.symbol === symbol);
    if (!asset) throw new Error(`sandbox: Hydration has no ${symbol}`);
    ledger.credit(asset, OMNIPOOL_ACCOUNT, reserve);
    seed(node, 'Omnipool', 'Assets', [id], { hubReserve, shares: reserve, protocolShares: 0n, cap: NO_CAP, tradable: { bits: TRADABLE } });
    // No trades yet: the asset's dynamic fee is its configured minimum.
    seed(node, 'DynamicFees', 'AssetFee', [id], { assetFee: 2_500, protocolFee: 500, timestamp: 0 });
  }
  seed(node, 'Omnipool', 'HubAssetTradability', [], { bits: TRADABLE });
  // LRNA is not an asset the sandbox's accounts hold (not in assets.ts): the pool's balance of it, the sum of the hub reserves.
  seedTokens(node, OMNIPOOL_ACCOUNT, LRNA, RESERVES.reduce((sum, r) => sum + r.hubReserve, 0n));
  // The relay block the parachain's block builds on, which LBP pools' schedules read (there are none).
  seed(node, 'ParachainSystem', 'ValidationData', [], { parentHead: '0x', relayParentNumber: 1, relayParentStorageRoot: `0x${'00'.repeat(32)}`, maxPovSize: 10 * 1024 * 1024 });
  // Hydration without Aave's money market: no pools to list.
  node.setRuntimeCall('AaveTradeExecutor_pools', () => []);
}
