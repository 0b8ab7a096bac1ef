import { utilCrypto } from '../sdk';
import { LIMITS } from './limits';

export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ACCOUNT_ID_HEX = /^0x[0-9a-fA-F]{64}$/;

export const isEvmAddress = (address: string): boolean => EVM_ADDRESS.test(address);

/** An SS58 address's account: its 32 bytes as lower-case hex (no 0x) and its network prefix. */
export interface Ss58Account {
  hex: string;
  prefix: number;
}

/** What utilCrypto.decodeAddress reads, with the prefix its checksum check also gives; null unless 32 bytes. */
function decodeSs58(address: string): Ss58Account | null {
  try {
    const raw = utilCrypto.base58Decode(address);
    const [valid, end, length, prefix] = utilCrypto.checkAddressChecksum(raw);
    if (!valid || end - length !== 32) return null;
    return { hex: Buffer.from(raw.subarray(length, end)).toString('hex'), prefix };
  } catch {
    return null;
  }
}

// Base58 decoding and the checksum's blake2 cost tens of microseconds, and one request reads its
// addresses several times (the schema, the offline checks, the build, the route check). Bounded,
// oldest first out.
const MAX_REMEMBERED = 1_000;
const ss58Accounts = new Map<string, Ss58Account | null>();

/** The account an SS58 address names; null when it is none (or longer than any address). */
export function ss58Account(address: string): Ss58Account | null {
  // Base58 decoding takes time quadratic in the length (a second for 10,000 characters).
  if (address.length > LIMITS.address) return null;
  let known = ss58Accounts.get(address);
  if (known === undefined) {
    known = decodeSs58(address);
    if (ss58Accounts.size >= MAX_REMEMBERED) ss58Accounts.delete(ss58Accounts.keys().next().value as string);
    ss58Accounts.set(address, known);
  }
  return known;
}

/** SS58, a raw 32-byte account id in hex, or a 20-byte EVM address. */
export function isValidAddress(address: string): boolean {
  if (EVM_ADDRESS.test(address) || ACCOUNT_ID_HEX.test(address)) return true;
  return ss58Account(address) !== null;
}

export const INVALID_ADDRESS = 'is not a valid address (SS58, 0x + 32-byte account id, or 0x + 20-byte EVM address)';

/**
 * The SDK's own rule (validateAddress), checked before any chain is dialled: an EVM chain takes
 * 20-byte addresses only, and a 20-byte address cannot receive on a Substrate chain.
 */
export function addressMismatch(address: string, chain: string, isEvmChain: boolean): string | undefined {
  if (isEvmChain && !isEvmAddress(address)) return `must be a 20-byte EVM address (0x...), since ${chain} is an EVM chain`;
  if (!isEvmChain && isEvmAddress(address)) return `is an EVM address, but ${chain} is not an EVM chain`;
  return undefined;
}
