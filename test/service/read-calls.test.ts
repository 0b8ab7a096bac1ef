// Call data is read once per bytes and runtime (src/service/route-check/read-calls.ts): the view the
// route check walks is what a fresh decode with the same metadata gives, for every bytes, under
// each chain's metadata, and again after a runtime upgrade gives the registry new metadata.
import { createRequire } from 'node:module';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import { readCall } from '../../src/service/route-check';
import { viewOf } from '../../src/service/route-check/walker';
import type { Call } from '@polkadot/types/interfaces';
import type { Registry } from '@polkadot/types/types';
import { FAMILIES, testApp } from '../helpers/app';
import { chainsForFile } from '../support/chains-for-file';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const BOB = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';

// Templates off: every answer's bytes are the SDK's, decoded by the route check.
const local = testApp({ BUILD_TEMPLATES: '0' });
const { chains, overrides } = chainsForFile(['Polkadot', 'AssetHubPolkadot'], local.services);
const apis = {} as Record<'Polkadot' | 'AssetHubPolkadot', ApiPromise>;

beforeAll(async () => {
  for (const name of ['Polkadot', 'AssetHubPolkadot'] as const) {
    apis[name] = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chains[name].url), noInitWarn: true });
  }
});
afterAll(async () => {
  await Promise.all(Object.values(apis).map((a) => a.disconnect()));
});

/** A teleport of `amount` planck of DOT from Polkadot to Asset Hub, to `address`, as call data. */
function teleport(amount: bigint, id = '0xd2eb07f02043788e254d9e2df57be11566d241c56302b91199b4647947af3020'): string {
  const here = { parents: 0, interior: 'Here' };
  return apis.Polkadot.tx.xcmPallet!
    .limitedTeleportAssets!(
      { V4: { parents: 0, interior: { X1: [{ Parachain: 1000 }] } } },
      { V4: { parents: 0, interior: { X1: [{ AccountId32: { network: null, id } }] } } },
      { V4: [{ id: here, fun: { Fungible: amount } }] },
      0,
      'Unlimited',
    )
    .method.toHex();
}

/** What a decode of `hex` with `registry` gives the walk, read afresh (or the error it throws). */
function fresh(registry: Registry, hex: string): unknown {
  try {
    return viewOf(registry.createType<Call>('Call', hex));
  } catch (error) {
    return { threw: (error as Error).message };
  }
}
function kept(registry: Registry, hex: string): unknown {
  try {
    return readCall(registry, hex);
  } catch (error) {
    return { threw: (error as Error).message };
  }
}

describe('call data read once per runtime', () => {
  it('the same bytes read twice under one runtime give the view a fresh decode gives, kept, and walking it leaves it so', () => {
    const hex = teleport(10_000_000_000n);
    const first = readCall(apis.Polkadot.registry, hex);
    expect(first).toEqual(fresh(apis.Polkadot.registry, hex));
    expect(readCall(apis.Polkadot.registry, hex)).toBe(first);
    local.services.routeCheck.check(apis.Polkadot.registry, 'Polkadot', hex, [{ chain: 'AssetHubPolkadot', recipient: ALICE }], null);
    expect(readCall(apis.Polkadot.registry, hex)).toBe(first);
    expect(first).toEqual(fresh(apis.Polkadot.registry, hex));
  });

  it('other bytes (another amount, another recipient) give their own view', () => {
    const a = teleport(10_000_000_000n);
    const b = teleport(20_000_000_000n);
    const c = teleport(10_000_000_000n, `0x${'11'.repeat(32)}`);
    for (const hex of [a, b, c]) expect(readCall(apis.Polkadot.registry, hex)).toEqual(fresh(apis.Polkadot.registry, hex));
    expect(readCall(apis.Polkadot.registry, b)).not.toEqual(readCall(apis.Polkadot.registry, a));
    expect(readCall(apis.Polkadot.registry, c)).not.toEqual(readCall(apis.Polkadot.registry, a));
  });

  it("the same bytes under another chain's metadata are decoded with that metadata", () => {
    const hex = teleport(10_000_000_000n);
    readCall(apis.Polkadot.registry, hex);
    expect(kept(apis.AssetHubPolkadot.registry, hex)).toEqual(fresh(apis.AssetHubPolkadot.registry, hex));
    expect(kept(apis.AssetHubPolkadot.registry, hex)).not.toEqual(readCall(apis.Polkadot.registry, hex));
  });

  it('after a runtime upgrade (the registry given new metadata, as polkadot.js does) the bytes are read again', () => {
    const hex = teleport(10_000_000_000n);
    const before = readCall(apis.Polkadot.registry, hex);
    const { Metadata } = createRequire(__filename)('@polkadot/types') as typeof import('@polkadot/types');
    const registry = apis.Polkadot.registry;
    registry.setMetadata(new Metadata(registry, chains.Polkadot.metadataHex), undefined, undefined, true);
    const after = readCall(registry, hex);
    expect(after).not.toBe(before);
    expect(after).toEqual(fresh(registry, hex));
  });
});

describe.each(FAMILIES)('/%s x-transfer: each answer is checked as its own bytes read', (family) => {
  const build = (address: string) =>
    request(local.app)
      .post(`/${family}/x-transfer`)
      .send({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, [family === 'v5' ? 'address' : 'recipient']: address, options: { development: true, apiOverrides: overrides } });

  it('the same transfer twice and to another recipient: each answered with its own call data, each check passed', async () => {
    const first = await build(ALICE).expect(200);
    const again = await build(ALICE).expect(200);
    const other = await build(BOB).expect(200);
    const hexOf = (res: request.Response): string => (typeof res.body === 'string' ? res.body : (res.body as { tx: string }).tx);
    expect(hexOf(again)).toBe(hexOf(first));
    expect(hexOf(other)).not.toBe(hexOf(first));
    const metrics = await request(local.app).get('/metrics').expect(200);
    const passed = Number(/xcm_gateway_route_checks_total\{outcome="passed",origin="Polkadot"\} (\d+)/.exec(metrics.text)?.[1] ?? 0);
    expect(passed).toBeGreaterThanOrEqual(3);
    expect(metrics.text).not.toMatch(/xcm_gateway_route_checks_total\{outcome="refused"/);
  });
});
