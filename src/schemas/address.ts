import { readSs58 } from '../sdk';
import { LIMITS } from './limits';

export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ACCOUNT_ID_HEX = /^0x[0-9a-fA-F]{64}$/;

export const isEvmAddress = (address: string): boolean => EVM_ADDRESS.test(address);

/** An SS58 address's account: its 32 bytes as lower-case hex (no 0x) and its network prefix. */
export interface Ss58Account {
  readonly hex: string;
  readonly prefix: number;
}

/**
 * The account an SS58 address names; null when it is none (a bad checksum, an index rather than
 * 32 bytes, or longer than any address). Read through the SDK's memo of decoded addresses
 * (src/sdk/patches/address-memo.ts): one request reads its addresses several times (the schema,
 * the offline checks, the build, the route check) and the SDK decodes them again.
 */
export function ss58Account(address: string): Ss58Account | null {
  // Base58 decoding takes time quadratic in the length (a second for 10,000 characters).
  if (address.length > LIMITS.address) return null;
  const reading = readSs58(address);
  return reading?.checksumValid && reading.hex.length === 64 ? reading : null;
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
