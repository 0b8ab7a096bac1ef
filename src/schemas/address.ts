import { utilCrypto } from '../sdk';
import { LIMITS } from './limits';

export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ACCOUNT_ID_HEX = /^0x[0-9a-fA-F]{64}$/;

export const isEvmAddress = (address: string): boolean => EVM_ADDRESS.test(address);

function decodesToAccountId(address: string): boolean {
  try {
    return utilCrypto.decodeAddress(address).length === 32;
  } catch {
    return false;
  }
}

// An SS58 checksum costs a blake2 hash; a batch repeats the same few addresses. Bounded, oldest
// first out.
const MAX_REMEMBERED = 1_000;
const ss58Validity = new Map<string, boolean>();

/** SS58, a raw 32-byte account id in hex, or a 20-byte EVM address. */
export function isValidAddress(address: string): boolean {
  // Base58 decoding takes time quadratic in the length (a second for 10,000 characters).
  if (address.length > LIMITS.address) return false;
  if (EVM_ADDRESS.test(address) || ACCOUNT_ID_HEX.test(address)) return true;
  let valid = ss58Validity.get(address);
  if (valid === undefined) {
    valid = decodesToAccountId(address);
    if (ss58Validity.size >= MAX_REMEMBERED) ss58Validity.delete(ss58Validity.keys().next().value as string);
    ss58Validity.set(address, valid);
  }
  return valid;
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
