// Seeds a test chain's storage the way the runtime lays it out: keys built with the pallet's and
// item's twox128 prefixes and each key argument hashed with the hasher the metadata declares
// (Blake2_128Concat, Twox64Concat, Identity...), values encoded with the metadata's value type.
// What the SDK then reads through ApiPromise is a real, decodable balance.
import { createRequire } from 'node:module';
import type { TypeRegistry } from '@polkadot/types';
import type { ChainNode } from './chain-node';

const load = createRequire(__filename);
const util = load('@polkadot/util') as typeof import('@polkadot/util');
const crypto = load('@polkadot/util-crypto') as typeof import('@polkadot/util-crypto');

type Hasher = 'Blake2_128' | 'Blake2_256' | 'Blake2_128Concat' | 'Twox128' | 'Twox256' | 'Twox64Concat' | 'Identity';

function hash(hasher: Hasher, data: Uint8Array): Uint8Array {
  switch (hasher) {
    case 'Blake2_128':
      return crypto.blake2AsU8a(data, 128);
    case 'Blake2_256':
      return crypto.blake2AsU8a(data, 256);
    case 'Blake2_128Concat':
      return util.u8aConcat(crypto.blake2AsU8a(data, 128), data);
    case 'Twox128':
      return crypto.xxhashAsU8a(data, 128);
    case 'Twox256':
      return crypto.xxhashAsU8a(data, 256);
    case 'Twox64Concat':
      return util.u8aConcat(crypto.xxhashAsU8a(data, 64), data);
    case 'Identity':
      return data;
  }
}

/** The full key and value of `pallet.item(...keys) = value`, both encoded with the chain's metadata. */
function storageEntry(registry: TypeRegistry, pallet: string, item: string, keys: unknown[], value: unknown): { key: `0x${string}`; value: `0x${string}` } {
  const p = registry.metadata.pallets.find((x) => x.name.eq(pallet));
  const entry = p?.storage.unwrapOr(undefined)?.items.find((x) => x.name.eq(item));
  if (!p || !entry) throw new Error(`seed: no storage item ${pallet}.${item} in this chain's metadata`);
  const prefix = util.u8aConcat(crypto.xxhashAsU8a(pallet, 128), crypto.xxhashAsU8a(item, 128));
  let parts: Uint8Array[] = [prefix];
  let valueType;
  if (entry.type.isPlain) {
    if (keys.length) throw new Error(`seed: ${pallet}.${item} takes no key`);
    valueType = entry.type.asPlain;
  } else {
    const map = entry.type.asMap;
    const hashers = map.hashers.map((h) => h.type as Hasher);
    // One key: the key type itself; several: a tuple whose fields are the keys in order.
    const keyTypes = hashers.length === 1 ? [map.key] : registry.lookup.getSiType(map.key).def.asTuple.toArray();
    if (keyTypes.length !== keys.length) throw new Error(`seed: ${pallet}.${item} takes ${keyTypes.length} key(s), got ${keys.length}`);
    parts = [prefix, ...keys.map((k, i) => hash(hashers[i] as Hasher, registry.createType(registry.createLookupType(keyTypes[i]!), k).toU8a()))];
    valueType = map.value;
  }
  return {
    key: util.u8aToHex(util.u8aConcat(...parts)) as `0x${string}`,
    value: registry.createType(registry.createLookupType(valueType), value).toHex() as `0x${string}`,
  };
}

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
