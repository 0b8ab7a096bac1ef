// The junction bytes Moonbeam's precompiles read, checked value by value against the layout
// (selector byte, then the value at its fixed width) and through an ABI round trip.
import { describe, expect, it } from 'vitest';
import { decodeFunctionData, encodeFunctionData, parseAbi, toHex } from 'viem';
import { accountJunction, beneficiaryLocation, parachainJunction, xc20Address } from '../../src/service/evm/precompile-locations';
import { utilCrypto } from '../../src/sdk';

const XTOKENS = parseAbi(['function transfer(address currency_address, uint256 amount, (uint8 parents, bytes[] interior) destination, uint64 weight)']);
const SS58 = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ACCOUNT = toHex(utilCrypto.decodeAddress(SS58));

describe('parachain junction', () => {
  const expected: [number, string][] = [
    [0, '0x0000000000'],
    [1, '0x0000000001'],
    [255, '0x00000000ff'],
    [256, '0x0000000100'],
    [4095, '0x0000000fff'],
    [4096, '0x0000001000'],
    [65535, '0x000000ffff'],
    [2 ** 32 - 1, '0x00ffffffff'],
  ];

  it.each(expected)('para id %i is 0x00 then 4 bytes big-endian', (id, hex) => {
    expect(parachainJunction(id)).toBe(hex);
  });

  it.each(expected)('para id %i survives the ABI round trip inside a destination', (id, hex) => {
    const destination = beneficiaryLocation(id, accountJunction(SS58, false));
    const data = encodeFunctionData({ abi: XTOKENS, functionName: 'transfer', args: ['0x0000000000000000000000000000000000000802', 1n, destination, 0n] });
    const { args } = decodeFunctionData({ abi: XTOKENS, data });
    expect(args[2]).toEqual({ parents: 1, interior: [hex, `0x01${ACCOUNT.slice(2)}00`] });
  });

  it('refuses what is not a u32', () => {
    for (const id of [-1, 2 ** 32, 1.5]) expect(() => parachainJunction(id)).toThrow(RangeError);
  });
});

describe('account junction', () => {
  it('AccountId32: 0x01, the 32 bytes, network None; SS58 and hex give the same bytes', () => {
    expect(accountJunction(SS58, false)).toBe(`0x01${ACCOUNT.slice(2)}00`);
    expect(accountJunction(ACCOUNT, false)).toBe(`0x01${ACCOUNT.slice(2)}00`);
    expect(accountJunction(ACCOUNT.toUpperCase().replace('0X', '0x'), false)).toBe(`0x01${ACCOUNT.slice(2)}00`);
  });

  it('AccountKey20: 0x03, the 20 bytes (checksummed or not), network None', () => {
    const key = '0x24D18dbFBcEd732EAdF98EE520853e13909fE258';
    expect(accountJunction(key, true)).toBe(`0x03${key.slice(2).toLowerCase()}00`);
    expect(accountJunction(key.toLowerCase(), true)).toBe(`0x03${key.slice(2).toLowerCase()}00`);
  });

  it('a relay chain destination has no parachain junction', () => {
    expect(beneficiaryLocation(undefined, '0x01')).toEqual({ parents: 1, interior: ['0x01'] });
  });
});

describe('XC-20 address', () => {
  it('is 0xffffffff then the u128 id in 32 hex digits; ERC-20 ids pass through', () => {
    expect(xc20Address('42259045809535163221576417993425387648').toLowerCase()).toBe('0xffffffff1fcacbd218edc0eba20fc2308c778080');
    expect(xc20Address('1').toLowerCase()).toBe('0xffffffff00000000000000000000000000000001');
    expect(xc20Address((2n ** 128n - 1n).toString()).toLowerCase()).toBe(`0x${'f'.repeat(40)}`);
    expect(xc20Address('0x06e605775296e851ff43b4daa541bb0984e9d6fd').toLowerCase()).toBe('0x06e605775296e851ff43b4daa541bb0984e9d6fd');
    expect(() => xc20Address((2n ** 128n).toString())).toThrow(/u128/);
  });
});
