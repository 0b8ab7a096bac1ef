// Patch: an SS58 address is decoded once, not at every use, and the service's own checks read the
// same memo.
//
// Corrects: the cost of @polkadot/util-crypto 14.0.3's `decodeAddress` (base58 through @scure/base,
// quadratic in the length, then a blake2 checksum: about 30 µs a call on this machine), which the
// SDK and polkadot.js call for the same one or two addresses at every step: one /xcm-fee decoded
// them 21 times (the SDK validates each address at each leg and turns it into hex, polkadot.js
// reads it again for the signing info, the fake signature and the nonce). The request schemas
// (src/schemas/address.ts) read the same address before, for its account and network prefix.
//
// What is kept, per address, in one bounded LRU (DECODED_ADDRESSES): what `decodeAddress` reads
// before the checks that depend on its arguments (the account bytes, the prefix, whether the
// checksum holds), or why it does not read. `decodeAddress` then applies its own checks
// (ignoreChecksum, ss58Format) to that at each call, with its own messages, and every caller gets
// its own copy of the bytes; `readSs58` hands the schemas the same reading. Hex and byte inputs go
// straight to util-crypto (they cost nothing).
//
// Still needed? Time `utilCrypto.decodeAddress` of an SS58 address in a newer @polkadot/util-crypto:
// under a microsecond (or cached by polkadot.js itself), and the patch can go (the schemas would
// then read addresses with base58Decode and checkAddressChecksum). On any util-crypto upgrade,
// compare address/decode.js with `decodeRead` below. Remove it and run the guard tests.
//
// Guarded by: test/sdk/address-memo.test.ts.
import { LRUCache } from 'lru-cache';

type DecodeAddress = (encoded?: string | Uint8Array | null, ignoreChecksum?: boolean, ss58Format?: number) => Uint8Array;

/** An SS58 address as util-crypto reads it, before a caller's own checks. */
export interface Ss58Reading {
  /** The account's bytes as lower-case hex, no 0x (32 bytes for an account, fewer for an index). */
  readonly hex: string;
  /** The network prefix it was encoded for. */
  readonly prefix: number;
  /** Whether its checksum holds: `decodeAddress` refuses it otherwise, unless told to ignore it. */
  readonly checksumValid: boolean;
}

/** What one address reads as: its reading and bytes, or the message of why it does not decode. */
type Read = { reading: Ss58Reading; bytes: Uint8Array } | { error: string };

/** Addresses kept decoded: a request names two or three; this holds many clients' worth. */
export const DECODED_ADDRESSES = 4096;

/**
 * Makes `decodeAddress` of util-crypto (loaded through `load`) keep what it decoded; returns the
 * reader of the same memo: an address's reading, or null when it does not decode.
 */
export function decodeAddressesOnce(load: NodeJS.Require): (address: string) => Ss58Reading | null {
  // The modules decodeAddress reads at each call (their exports are plain properties or getters).
  const module = load('@polkadot/util-crypto/cjs/address/decode') as { decodeAddress: DecodeAddress };
  const bs58 = load('@polkadot/util-crypto/cjs/base58/bs58') as { base58Decode(value: string): Uint8Array };
  const checksum = load('@polkadot/util-crypto/cjs/address/checksum') as { checkAddressChecksum(decoded: Uint8Array): [boolean, number, number, number] };
  const defaults = load('@polkadot/util-crypto/cjs/address/defaults') as { defaults: { allowedEncodedLengths: number[] } };
  const decode = module.decodeAddress;
  // Failures are kept too: a client that sends the same bad address again costs no second decode.
  const reads = new LRUCache<string, Read>({ max: DECODED_ADDRESSES });

  /** decodeAddress's reading of a string, up to its checks of the caller's arguments. */
  const decodeRead = (address: string): Read => {
    try {
      const decoded = bs58.base58Decode(address);
      if (!defaults.defaults.allowedEncodedLengths.includes(decoded.length)) return { error: 'Invalid decoded address length' };
      const [checksumValid, end, prefixLength, prefix] = checksum.checkAddressChecksum(decoded);
      const bytes = decoded.slice(prefixLength, end);
      return { reading: { hex: Buffer.from(bytes).toString('hex'), prefix, checksumValid }, bytes };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  const read = (address: string): Read => {
    let known = reads.get(address);
    if (!known) {
      known = decodeRead(address);
      reads.set(address, known);
    }
    return known;
  };

  module.decodeAddress = (encoded, ignoreChecksum, ss58Format = -1) => {
    if (typeof encoded !== 'string' || encoded === '' || encoded.startsWith('0x')) return decode(encoded, ignoreChecksum, ss58Format);
    const known = read(encoded);
    // decodeAddress's own checks and messages, in its order.
    const refused = (why: string) => new Error(`Decoding ${encoded}: ${why}`);
    if ('error' in known) throw refused(known.error);
    const { reading, bytes } = known;
    if (!reading.checksumValid && !ignoreChecksum) throw refused('Invalid decoded address checksum');
    if (ss58Format !== -1 && ss58Format !== reading.prefix) throw refused(`Expected ss58Format ${ss58Format}, received ${reading.prefix}`);
    return bytes.slice();
  };
  return (address) => {
    const known = read(address);
    return 'error' in known ? null : known.reading;
  };
}
