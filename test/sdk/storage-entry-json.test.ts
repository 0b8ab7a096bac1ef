import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { polkadotApi, polkadotUtil, type ApiPromise } from '../../src/sdk';
import { leanPricing } from '../../src/sdk/patches/lean-pricing';
import { startTestChain, type TestChain } from '../support/test-chain';

// patches/storage-entry-json.ts: a storage entry's JSON (the key of polkadot.js's query memo) is
// made once per decorated function: the same value as polkadot.js's own, not made again.
const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
let chain: TestChain;
let api: ApiPromise;

beforeAll(async () => {
  chain = await startTestChain('Polkadot');
  api = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chain.url), noInitWarn: true });
}, 60_000);

afterAll(async () => {
  await api.disconnect();
  await chain.close();
});

afterEach(() => {
  leanPricing.on = true;
});

it("a storage entry's JSON is polkadot.js's own, made once, and a read is keyed as before", async () => {
  const { creator } = api.query.system.account;
  const first = creator.toJSON();
  expect(creator.toJSON()).toBe(first);
  expect(Object.isFrozen(first)).toBe(true);
  const leanKey = polkadotUtil.stringify([[[creator, ADDRESS]]]);
  leanPricing.on = false;
  const own = creator.toJSON();
  expect(own).not.toBe(first);
  expect(first).toEqual(own);
  expect(polkadotUtil.stringify([[[creator, ADDRESS]]])).toBe(leanKey);
  // Another entry has its own.
  leanPricing.on = true;
  expect(api.query.system.number.creator.toJSON()).not.toEqual(first);
  // A read still answers.
  expect((await api.query.system.account(ADDRESS)).toJSON()).toHaveProperty('nonce');
});
