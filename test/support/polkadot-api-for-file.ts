// For the tests of the lean-pricing SDK patches (src/sdk/patches/lean-pricing.ts): a polkadot.js
// ApiPromise over a Polkadot test chain for the file, and the patches switched back on after each
// test that turned them off.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import { leanPricing } from '../../src/sdk/patches/lean-pricing';
import { startTestChain, type TestChain } from './test-chain';

/** The file's api, set before its first test. */
export function polkadotApiForFile(): { readonly api: ApiPromise } {
  let chain: TestChain | undefined;
  let api: ApiPromise | undefined;
  beforeAll(async () => {
    chain = await startTestChain('Polkadot');
    api = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chain.url), noInitWarn: true });
  }, 60_000);
  afterAll(async () => {
    await api?.disconnect();
    await chain?.close();
  });
  afterEach(() => {
    leanPricing.on = true;
  });
  return {
    get api() {
      if (!api) throw new Error('the api is made in beforeAll');
      return api;
    },
  };
}
