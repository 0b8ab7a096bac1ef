import { describe, expect, it } from 'vitest';
import { keyOfLocation, parseLocation, sameLocation } from '../../src/xcm/location';

const USDT = { parents: 1, interior: { X3: [{ Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 1984 }] } };

describe('keyOfLocation: one key per location, whatever its spelling', () => {
  it('spellings of one location share a key', () => {
    const spellings = [
      USDT,
      { parents: '1', interior: { x3: [{ parachain: '1000' }, { palletInstance: 50 }, { generalIndex: '1,984' }] } },
      { parents: 1, interior: { X3: [{ Parachain: 1000 }, { PalletInstance: '50' }, { GeneralIndex: 1984n }] } },
    ];
    expect(new Set(spellings.map(keyOfLocation)).size).toBe(1);
    expect(keyOfLocation({ parents: 0, interior: 'Here' })).toBe(keyOfLocation({ parents: 0, interior: { here: null } }));
    expect(keyOfLocation({ parents: 0, interior: { X1: { Parachain: 1000 } } })).toBe(keyOfLocation({ parents: 0, interior: { X1: [{ Parachain: 1000 }] } }));
  });

  it('different locations have different keys, as sameLocation tells them apart', () => {
    const others = [
      { ...USDT, parents: 0 },
      { parents: 1, interior: { X3: [{ Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 1337 }] } },
      { parents: 1, interior: { X2: [{ Parachain: 1000 }, { PalletInstance: 50 }] } },
      { parents: 1, interior: { X3: [{ Parachain: 1000 }, { GeneralIndex: 50 }, { GeneralIndex: 1984 }] } },
      // A string that looks like two junctions is one junction's value.
      { parents: 1, interior: { X1: [{ GeneralKey: '["PalletInstance","50"]' }] } },
    ];
    const keys = [USDT, ...others].map(keyOfLocation);
    expect(new Set(keys).size).toBe(keys.length);
    for (const other of others) expect(sameLocation(parseLocation(USDT)!, parseLocation(other)!)).toBe(false);
  });

  it('is null for what is not a location', () => {
    for (const value of [null, 'Here', { parents: -1, interior: 'Here' }, { parents: 1, interior: { X9: [] } }]) expect(keyOfLocation(value)).toBeNull();
  });
});
