// How Moonbeam's precompiles spell XCM locations: `(uint8 parents, bytes[] interior)`, each
// junction a one-byte selector followed by its SCALE-free value (Moonbeam's
// `xcm-primitives` junction encoding). Upstream ParaSpell wrote the para id with too few bytes
// outside 256..4095 and mangled hex recipients; here every value has its fixed width.
import { concat, getAddress, hexToNumber, numberToHex, size, slice, toHex, type Address, type Hex } from 'viem';
import { badRequest } from '../../errors';
import { utilCrypto } from '../../sdk';
import type { Junction, Loc } from '../../xcm/location';

export interface PrecompileLocation {
  parents: number;
  interior: readonly Hex[];
}

const PARACHAIN = '0x00';
const ACCOUNT_ID_32 = '0x01';
const ACCOUNT_KEY_20 = '0x03';
/** NetworkId `None` (Option::None): the account is on the chain the location points at. */
const ANY_NETWORK = '0x00';

const U32_MAX = 2 ** 32 - 1;

/** `Parachain(id)`: the selector, then the id as 4 bytes big-endian. */
export function parachainJunction(paraId: number): Hex {
  if (!Number.isInteger(paraId) || paraId < 0 || paraId > U32_MAX) throw new RangeError(`para id ${paraId} is not a u32`);
  return concat([PARACHAIN, numberToHex(paraId, { size: 4 })]);
}

/** The 32 bytes of a Substrate account: SS58 decoded, or 0x + 64 hex digits taken as is. */
export function accountId32(address: string): Hex {
  try {
    const bytes = utilCrypto.decodeAddress(address);
    if (bytes.length === 32) return toHex(bytes);
  } catch {
    // reported below
  }
  throw badRequest('InvalidAddressError', `${address} is not a 32-byte account (SS58 or 0x + 64 hex digits)`);
}

/** `AccountId32 { network: None, id }` or, for an EVM destination, `AccountKey20 { network: None, key }`. */
export function accountJunction(address: string, evmDestination: boolean): Hex {
  if (evmDestination) return concat([ACCOUNT_KEY_20, getAddress(address).toLowerCase() as Hex, ANY_NETWORK]);
  return concat([ACCOUNT_ID_32, accountId32(address), ANY_NETWORK]);
}

/**
 * The beneficiary as the origin parachain sees it: up to the relay (parents 1), then into the
 * destination parachain, when there is one, and to the account.
 */
export function beneficiaryLocation(paraId: number | undefined, account: Hex): PrecompileLocation {
  return { parents: 1, interior: paraId === undefined ? [account] : [parachainJunction(paraId), account] };
}

const U128_LIMIT = 1n << 128n;

/**
 * The ERC-20 address an asset has on Moonbeam/Moonriver: an XC-20 is 0xffffffff followed by
 * its u128 asset id in 32 hex digits; a local ERC-20 is registered under its own address.
 */
export function xc20Address(assetId: string): Address {
  if (/^0x[0-9a-fA-F]{40}$/.test(assetId)) return getAddress(assetId);
  if (!/^\d+$/.test(assetId) || BigInt(assetId) >= U128_LIMIT) {
    throw badRequest('InvalidCurrencyError', `asset id ${assetId} is neither a u128 XC-20 id nor an ERC-20 address`);
  }
  return getAddress(`0xffffffff${BigInt(assetId).toString(16).padStart(32, '0')}`);
}

/** Each selector's payload width in bytes and the junction it reads as (the network byte must be None). */
const READERS: Record<string, { width: number; read: (payload: Hex) => Junction }> = {
  [PARACHAIN]: { width: 4, read: (p) => ({ type: 'Parachain', value: hexToNumber(p) }) },
  [ACCOUNT_ID_32]: { width: 33, read: (p) => ({ type: 'AccountId32', value: { network: null, id: slice(p, 0, 32) } }) },
  [ACCOUNT_KEY_20]: { width: 21, read: (p) => ({ type: 'AccountKey20', value: { network: null, key: slice(p, 0, 20) } }) },
};

/**
 * A precompile location read back into XCM (what the precompile hands xTokens or pallet-xcm), or
 * null for junctions this service never writes (the route check then cannot read it).
 */
export function readPrecompileLocation(location: PrecompileLocation): Loc | null {
  const junctions: Junction[] = [];
  for (const junction of location.interior) {
    const reader = READERS[slice(junction, 0, 1)];
    if (!reader || size(junction) !== 1 + reader.width) return null;
    const payload = slice(junction, 1);
    // Only Parachain carries no network byte; the accounts' last byte is NetworkId None (0x00).
    if (reader.width !== 4 && slice(payload, reader.width - 1) !== ANY_NETWORK) return null;
    junctions.push(reader.read(payload));
  }
  return { parents: location.parents, junctions };
}
