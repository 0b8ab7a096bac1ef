import { describe, expect, it } from 'vitest';
import { parseLocation, reanchor, sameLocation, toSdkJson, universalOf } from '../../src/xcm/location';

const POLKADOT = universalOf('Polkadot');
const ASSET_HUB = universalOf('Polkadot', 1000);
const HYDRATION = universalOf('Polkadot', 2034);
const ASSET_HUB_KUSAMA = universalOf('Kusama', 1000);

const loc = (value: unknown) => {
  const parsed = parseLocation(value);
  if (parsed === null) throw new Error(`not a location: ${JSON.stringify(value)}`);
  return parsed;
};

describe('re-anchoring a location to the chain that reads it', () => {
  it("the relay's child Hydration is Asset Hub's sibling", () => {
    const fromRelay = loc({ parents: 0, interior: { X1: [{ Parachain: 2034 }] } });
    expect(toSdkJson(reanchor(fromRelay, POLKADOT, ASSET_HUB)!)).toEqual({ parents: 1, interior: { X1: [{ Parachain: 2034 }] } });
  });

  it('a sibling reads the same from any parachain of the network', () => {
    const fromHydration = loc({ parents: 1, interior: { x1: [{ parachain: 2004 }] } });
    expect(reanchor(fromHydration, HYDRATION, ASSET_HUB)).toEqual(fromHydration);
  });

  it('the relay token, written by Asset Hub, is Here on the relay', () => {
    expect(reanchor(loc({ parents: 1, interior: 'Here' }), ASSET_HUB, POLKADOT)).toEqual({ parents: 0, junctions: [] });
  });

  it("Asset Hub's USDT, seen from Hydration, keeps its pallet and index", () => {
    const usdt = loc({ parents: 0, interior: { X2: [{ PalletInstance: 50 }, { GeneralIndex: 1984 }] } });
    expect(toSdkJson(reanchor(usdt, ASSET_HUB, HYDRATION)!)).toEqual({
      parents: 1,
      interior: { X3: [{ Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 1984 }] },
    });
  });

  it('across a bridge a location keeps its global consensus', () => {
    const dot = loc({ parents: 1, interior: { Here: null } });
    expect(toSdkJson(reanchor(dot, ASSET_HUB, ASSET_HUB_KUSAMA)!)).toEqual({ parents: 2, interior: { X1: [{ GlobalConsensus: { Polkadot: null } }] } });
  });

  it('networks match whatever their spelling', () => {
    const ksm = loc({ parents: 2, interior: { x1: [{ globalConsensus: { kusama: null } }] } });
    expect(reanchor(ksm, ASSET_HUB, ASSET_HUB_KUSAMA)).toEqual({ parents: 1, junctions: [] });
  });

  it('a network named as a string is the same network as its unit variant (how the SDK writes bridge destinations)', () => {
    expect(sameLocation(loc({ parents: 2, interior: { X1: [{ GlobalConsensus: 'Kusama' }] } }), loc({ parents: 2, interior: { x1: [{ globalConsensus: { kusama: null } }] } }))).toBe(true);
  });

  it('a location that climbs above the universe names nothing', () => {
    expect(reanchor(loc({ parents: 3, interior: 'Here' }), ASSET_HUB, POLKADOT)).toBeNull();
  });

  it('refuses what is not a location', () => {
    expect(parseLocation({ parents: -1, interior: 'Here' })).toBeNull();
    expect(parseLocation({ parents: 0, interior: { X9: [] } })).toBeNull();
    expect(parseLocation('Here')).toBeNull();
  });
});
