import { expect, it } from 'vitest';
import { polkadotUtil } from '../../src/sdk';
import { leanPricing } from '../../src/sdk/patches/lean-pricing';
import { polkadotApiForFile } from '../support/polkadot-api-for-file';

// patches/storage-entry-json.ts: a storage entry's JSON (the key of polkadot.js's query memo) is
// made once per decorated function: the same value as polkadot.js's own, not made again.
const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const file = polkadotApiForFile();

it("a storage entry's JSON is polkadot.js's own, made once, and a read is keyed as before", async () => {
  const { creator } = file.api.query.system.account;
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
  expect(file.api.query.system.number.creator.toJSON()).not.toEqual(first);
  // A read still answers.
  expect((await file.api.query.system.account(ADDRESS)).toJSON()).toHaveProperty('nonce');
});
