import { createRequire } from 'node:module';
import { afterEach, expect, it, vi } from 'vitest';
import { utilCrypto } from '../../src/sdk';

// patches/address-memo.ts: every use of an SS58 address decoded its base58 again (~30 µs each).
const load = createRequire(__filename);
const bs58 = load('@polkadot/util-crypto/cjs/base58/bs58') as { base58Decode(value: string): Uint8Array };

/** An address no other test decodes. */
const freshAddress = (ss58Format = 0) => utilCrypto.encodeAddress(utilCrypto.randomAsU8a(32), ss58Format);

afterEach(() => {
  vi.restoreAllMocks();
});

it('an address is decoded once, and every caller gets the same bytes in an array of its own', () => {
  const address = freshAddress();
  const base58 = vi.spyOn(bs58, 'base58Decode');
  const first = utilCrypto.decodeAddress(address);
  first.fill(0);
  const again = utilCrypto.decodeAddress(address);
  expect(utilCrypto.validateAddress(address)).toBe(true);
  expect(base58).toHaveBeenCalledTimes(1);
  expect(again).not.toBe(first);
  expect(utilCrypto.encodeAddress(again, 0)).toBe(address);
});

it('what does not decode throws each time with util-crypto\'s message, and a checksum or format is still checked after the address was kept', () => {
  const address = freshAddress();
  const broken = `${address.slice(0, -1)}${address.endsWith('a') ? 'b' : 'a'}`;
  for (let i = 0; i < 2; i++) expect(() => utilCrypto.decodeAddress(broken)).toThrow(/Invalid decoded address checksum/);
  // util-crypto's own messages, for each way an address does not decode, kept or not.
  for (let i = 0; i < 2; i++) {
    expect(() => utilCrypto.decodeAddress('0OIl')).toThrow('Decoding 0OIl: Invalid base58 character "0" (0x30) at index 0');
    expect(() => utilCrypto.decodeAddress('5Gr')).toThrow('Decoding 5Gr: Invalid decoded address length');
    expect(() => utilCrypto.decodeAddress('')).toThrow('Invalid empty address passed');
  }
  expect(utilCrypto.decodeAddress(broken, true)).toHaveLength(32);
  utilCrypto.decodeAddress(address);
  expect(() => utilCrypto.decodeAddress(address, false, 2)).toThrow(/Expected ss58Format 2, received 0/);
  expect(utilCrypto.decodeAddress(address, false, 0)).toEqual(utilCrypto.decodeAddress(address));
});
