// Storage keys and values as a runtime lays them out: the pallet's and item's twox128 prefixes,
// each key argument hashed with the hasher the metadata declares (Blake2_128Concat, Twox64Concat,
// Identity...), values encoded with the metadata's value type. seed.ts writes with them; the
// Moonbeam node's Ethereum JSON-RPC reads EVM storage with them.
import { crypto, util } from './polkadot-libs';
import type { TypeRegistry } from '@polkadot/types';

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
export function storageEntry(registry: TypeRegistry, pallet: string, item: string, keys: unknown[], value: unknown): { key: `0x${string}`; value: `0x${string}` } {
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

/** The key of EVM.AccountStorages(contract, slot) on Moonbeam: one word of a contract's storage. */
export const evmStorageKey = (registry: TypeRegistry, contract: string, slot: string): `0x${string}` => storageEntry(registry, 'EVM', 'AccountStorages', [contract, slot], `0x${'00'.repeat(32)}`).key;
