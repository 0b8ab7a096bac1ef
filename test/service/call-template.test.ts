import { describe, expect, it } from 'vitest';
import { compactHex, fill, makeTemplate, reproduces, type Sample, type Values } from '../../src/service/transfer/call-template';

// A template is kept only when it reproduces builds it was not made from (build-templates.ts):
// here, calls written by hand as the SDK might write them, one that carries only the request's
// values and others whose bytes depend on the amount in ways no substitution gives.

const A = 'aa'.repeat(32);
const B = 'bb'.repeat(32);
const C = 'cc'.repeat(32);
const hexOf = (n: bigint, bytes: number) => Buffer.from(n.toString(16).padStart(bytes * 2, '0'), 'hex').reverse().toString('hex');
const json = (n: bigint) => (n < 1n << 52n ? Number(n) : `0x${n.toString(16).padStart(32, '0')}`);

/** A teleport-like call: the amount as a compact and as JSON, the recipient's account in both. */
function call(values: Values, extra: (units: bigint) => { hex: string; args: Record<string, unknown> } = () => ({ hex: '', args: {} })): Sample {
  const more = extra(values.units);
  return {
    values,
    hex: `0x0a08${compactHex(values.units)}01${values.recipient}${more.hex}`,
    view: { section: 'xcmPallet', method: 'limitedTeleportAssets', args: { assets: { v4: [{ fun: { fungible: json(values.units) } }] }, beneficiary: { id: `0x${values.recipient}` }, ...more.args } },
  };
}

describe('call templates', () => {
  it('fills the amount and the accounts into the bytes and the arguments, at every compact width', () => {
    const template = makeTemplate(call({ units: 0x1f_2e3d_4c5b_6a79n, recipient: A }));
    for (const units of [1n, 64n, 16_384n, 1n << 30n, (1n << 128n) - 1n]) {
      const sample = call({ units, recipient: B });
      expect(fill(template, sample.values)).toEqual({ hex: sample.hex, view: sample.view });
      expect(reproduces(template, sample)).toBe(true);
    }
  });

  it('does not reproduce a call whose bytes carry a value derived from the amount', () => {
    const half = (units: bigint) => ({ hex: hexOf(units / 2n, 16), args: { fees: json(units / 2n) } });
    const template = makeTemplate(call({ units: 0x1f_2e3d_4c5b_6a79n, recipient: A }, half));
    expect(reproduces(template, call({ units: 0x3a_1b2c_3d4e_5f60n, recipient: B }, half))).toBe(false);
  });

  it('does not reproduce a call whose shape changes with the amount', () => {
    const split = (units: bigint) => (units > 1_000_000n ? { hex: '02', args: { split: true } } : { hex: '', args: {} });
    const template = makeTemplate(call({ units: 0x1f_2e3d_4c5b_6a79n, recipient: A }, split));
    expect(reproduces(template, call({ units: 0x3a_1b2c_3d4e_5f60n, recipient: B }, split))).toBe(true);
    expect(reproduces(template, call({ units: 5n, recipient: C }, split))).toBe(false);
  });

  it('does not reproduce a call that carries an account other than the request’s', () => {
    const fixed = () => ({ hex: A, args: { other: `0x${A}` } });
    const template = makeTemplate(call({ units: 0x1f_2e3d_4c5b_6a79n, recipient: A }, fixed));
    expect(reproduces(template, call({ units: 0x3a_1b2c_3d4e_5f60n, recipient: B }, fixed))).toBe(false);
  });
});
