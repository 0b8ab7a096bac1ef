import { afterEach, expect, it, vi } from 'vitest';
import { polkadotTypes } from '../../src/sdk/load';
import { leanPricing } from '../../src/sdk/patches/lean-pricing';

// patches/enum-json-keys.ts: an enum made from JSON finds its variant in a map kept per enum type:
// the same value, bytes and errors as polkadot.js's own path, without lower-casing every variant's
// name on each decode.
afterEach(() => {
  leanPricing.on = true;
  vi.restoreAllMocks();
});

const registry = new polkadotTypes.TypeRegistry();
registry.register({
  Mixed: { _enum: { First: 'u32', second: 'Null', ThirdOne: 'Text', Nested: 'Mixed2' } },
  Mixed2: { _enum: { Alpha: 'u8', Beta: '(u16, Text)' } },
  Indexed: { _enum: { A: 3, B: 7, C: 9 } },
});

const VALUES: Array<[string, unknown]> = [
  ['Mixed', { First: 5 }],
  ['Mixed', { first: 4_000_000_000 }],
  ['Mixed', { SECOND: null }],
  ['Mixed', { thirdone: 'x' }],
  ['Mixed', { Nested: { beta: [7, 'y'] } }],
  ['Mixed', { First: 1, second: null }],
  ['Mixed', 'second'],
  ['Mixed', '0x0105'],
  ['Indexed', { B: null }],
  ['Indexed', { c: null }],
];

const BAD: Array<[string, unknown]> = [
  ['Mixed', {}],
  ['Mixed', { nope: 1 }],
  ['Mixed', { First: 'not a number' }],
  ['Mixed', { Nested: { Gamma: 1 } }],
  ['Mixed', { Nested: { Alpha: 300 } }],
];

const made = (type: string, value: unknown) => {
  const codec = registry.createType(type, value);
  return { hex: codec.toHex(), json: codec.toJSON() };
};
const error = (type: string, value: unknown) => {
  try {
    registry.createType(type, value);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
};

it('gives the value, bytes and errors of polkadot.js\'s own path', () => {
  // The first value of a type makes its map.
  for (const type of ['Mixed', 'Mixed2', 'Indexed']) registry.createType(type);
  const lean = { made: VALUES.map(([t, v]) => made(t, v)), errors: BAD.map(([t, v]) => error(t, v)) };
  leanPricing.on = false;
  const own = { made: VALUES.map(([t, v]) => made(t, v)), errors: BAD.map(([t, v]) => error(t, v)) };
  expect(lean).toEqual(own);
  expect(own.errors.every((e) => typeof e === 'string')).toBe(true);
  expect(lean.made[1]).toEqual({ hex: '0x0000286bee', json: { first: 4_000_000_000 } });
});

it("finds a variant without lower-casing the type's variant names again", () => {
  registry.createType('Mixed');
  const lowered = vi.spyOn(String.prototype, 'toLowerCase');
  registry.createType('Mixed', { ThirdOne: 'x' });
  expect(lowered.mock.calls.length).toBe(1);
  leanPricing.on = false;
  lowered.mockClear();
  registry.createType('Mixed', { ThirdOne: 'x' });
  expect(lowered.mock.calls.length).toBeGreaterThanOrEqual(5);
});
