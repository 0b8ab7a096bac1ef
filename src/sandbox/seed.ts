// Seeds a test chain's storage the way the runtime lays it out (keys and values from the chain's
// metadata, storage-keys.ts). What the SDK then reads through ApiPromise is a real, decodable balance.
import type { ChainNode } from './chain-node';
import { storageEntry } from './storage-keys';

function seed(chain: ChainNode, pallet: string, item: string, keys: unknown[], value: unknown): void {
  const { key, value: hex } = storageEntry(chain.registry, pallet, item, keys, value);
  chain.setStorage(key, hex);
}

/** System.Account: the native balance (`free`; nonce, frozen and reserved zero unless given). */
export function seedNative(chain: ChainNode, address: string, free: bigint, extra: { frozen?: bigint; reserved?: bigint; nonce?: number } = {}): void {
  seed(chain, 'System', 'Account', [address], {
    nonce: extra.nonce ?? 0,
    consumers: 0,
    providers: 1,
    sufficients: 0,
    data: { free, reserved: extra.reserved ?? 0n, frozen: extra.frozen ?? 0n, flags: 0n },
  });
}

/** Assets.Account (pallet-assets, e.g. USDt 1984 on Asset Hub). */
export function seedAsset(chain: ChainNode, assetId: number | bigint, address: string, balance: bigint): void {
  seed(chain, 'Assets', 'Account', [assetId, address], { balance, status: 'Liquid', reason: 'Consumer', extra: null });
}

/** ForeignAssets.Account on Asset Hub: keyed by the asset's location. */
export function seedForeignAsset(chain: ChainNode, location: unknown, address: string, balance: bigint): void {
  seed(chain, 'ForeignAssets', 'Account', [location, address], { balance, status: 'Liquid', reason: 'Consumer', extra: null });
}

/** Hydration's orml Tokens.Accounts (every non-native asset, DOT is id 5). */
export function seedTokens(chain: ChainNode, address: string, currencyId: number, free: bigint, reserved = 0n): void {
  seed(chain, 'Tokens', 'Accounts', [address, currencyId], { free, reserved, frozen: 0n });
}

/** EVM.AccountStorages on Moonbeam: one 32-byte word of a contract's storage (an XC-20's balance). */
export function seedEvmStorage(chain: ChainNode, contract: string, slot: string, word: string): void {
  seed(chain, 'EVM', 'AccountStorages', [contract, slot], word);
}

/**
 * An XC-20 registered as Moonbeam registers it: EvmForeignAssets.AssetsById / AssetsByLocation
 * (active), and XcmWeightTrader.SupportedAssets with its price relative to GLMR (fee in the asset =
 * fee in GLMR x 10^18 / relative price).
 */
export function seedXc20(chain: ChainNode, id: bigint, location: unknown, relativePrice: bigint): void {
  seed(chain, 'EvmForeignAssets', 'AssetsById', [id], location);
  seed(chain, 'EvmForeignAssets', 'AssetsByLocation', [location], [id, 'Active']);
  seed(chain, 'XcmWeightTrader', 'SupportedAssets', [location], [true, relativePrice]);
}
