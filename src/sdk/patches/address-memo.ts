// Patch: an SS58 address is decoded once, not at every use.
//
// Corrects: the cost of @polkadot/util-crypto 14.0.3's `decodeAddress` (base58 through @scure/base,
// quadratic in the length, then a blake2 checksum: about 30 µs a call on this machine), which the
// SDK and polkadot.js call for the same one or two addresses at every step: one /xcm-fee decoded
// them 21 times (the SDK validates each address at each leg and turns it into hex, polkadot.js
// reads it again for the signing info, the fake signature and the nonce). Decoding is a pure
// function of (address, ignoreChecksum, ss58Format): its answer is kept in a bounded LRU
// (DECODED_ADDRESSES) and every caller gets its own copy of the bytes. What does not decode is not
// kept: it throws each time, as before. Hex and byte inputs go straight through (they cost nothing).
//
// Still needed? Time `utilCrypto.decodeAddress` of an SS58 address in a newer @polkadot/util-crypto:
// under a microsecond (or cached by polkadot.js itself), and the patch can go. Remove it and run
// the guard tests.
//
// Guarded by: test/sdk/address-memo.test.ts.
import { LRUCache } from 'lru-cache';

type DecodeAddress = (encoded?: string | Uint8Array | null, ignoreChecksum?: boolean, ss58Format?: number) => Uint8Array;

/** Addresses kept decoded: a request names two or three; this holds many clients' worth. */
export const DECODED_ADDRESSES = 4096;

/** Makes `decodeAddress` of util-crypto (loaded through `load`) keep what it decoded. */
export function decodeAddressesOnce(load: NodeJS.Require): void {
  // The module every re-export of decodeAddress reads at each call (its exports are plain properties).
  const module = load('@polkadot/util-crypto/cjs/address/decode') as { decodeAddress: DecodeAddress };
  const decode = module.decodeAddress;
  const decoded = new LRUCache<string, Uint8Array>({ max: DECODED_ADDRESSES });
  module.decodeAddress = (encoded, ignoreChecksum, ss58Format = -1) => {
    if (typeof encoded !== 'string' || encoded.startsWith('0x')) return decode(encoded, ignoreChecksum, ss58Format);
    const key = `${ignoreChecksum ? 1 : 0}:${ss58Format}:${encoded}`;
    const kept = decoded.get(key);
    if (kept) return kept.slice();
    const bytes = decode(encoded, ignoreChecksum, ss58Format);
    decoded.set(key, bytes.slice());
    return bytes;
  };
}
